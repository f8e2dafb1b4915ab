/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** decoupler's get_pseudobulk: X summed per sample and group. */
@NullMarked
package io.scflux.ops.pseudobulk;

import org.jspecify.annotations.NullMarked;

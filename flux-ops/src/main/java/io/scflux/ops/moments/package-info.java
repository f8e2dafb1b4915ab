/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** Per-gene sums and moments that several steps fold over X. */
@NullMarked
package io.scflux.ops.moments;

import org.jspecify.annotations.NullMarked;

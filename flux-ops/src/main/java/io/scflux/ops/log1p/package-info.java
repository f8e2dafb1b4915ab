/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's log1p, staged on X. */
@NullMarked
package io.scflux.ops.log1p;

import org.jspecify.annotations.NullMarked;

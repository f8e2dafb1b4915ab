/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's normalize_total: size factors and the staged scaling of X. */
@NullMarked
package io.scflux.ops.normalize;

import org.jspecify.annotations.NullMarked;

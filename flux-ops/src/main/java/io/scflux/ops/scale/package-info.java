/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's scale, staged on X. */
@NullMarked
package io.scflux.ops.scale;

import org.jspecify.annotations.NullMarked;

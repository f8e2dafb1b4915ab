/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** The lazy normalized view of X (counts scaled per cell and logged as blocks are read) and its kernels. */
@NullMarked
package io.scflux.ops.normalized;

import org.jspecify.annotations.NullMarked;

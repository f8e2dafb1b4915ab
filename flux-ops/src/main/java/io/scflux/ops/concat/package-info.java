/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** anndata's concat: several containers stacked by rows, X re-indexed to the joined genes block by block. */
@NullMarked
package io.scflux.ops.concat;

import org.jspecify.annotations.NullMarked;

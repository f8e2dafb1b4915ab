/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's highly_variable_genes: per-gene dispersions over X and the genes they select. */
@NullMarked
package io.scflux.ops.hvg;

import org.jspecify.annotations.NullMarked;

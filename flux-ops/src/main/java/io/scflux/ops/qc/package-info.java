/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** scanpy's calculate_qc_metrics. */
@NullMarked
package io.scflux.ops.qc;

import org.jspecify.annotations.NullMarked;

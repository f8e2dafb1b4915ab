/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/**
 * scanpy's {@code tl.leiden}: clusters of the neighbourhood graph by Leiden's algorithm (modularity), with the
 * CWTS {@code networkanalysis} library by the algorithm's authors.
 */
@NullMarked
package io.scflux.ops.leiden;

import org.jspecify.annotations.NullMarked;

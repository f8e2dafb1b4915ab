/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** HDF5 bytes: the arrays of a file, their chunks decoded in parallel, and the reads' buffers and statistics. */
@NullMarked
package io.scflux.io.hdf5;

import org.jspecify.annotations.NullMarked;

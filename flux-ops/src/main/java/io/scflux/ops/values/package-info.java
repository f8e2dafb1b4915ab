/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** What steps share about X's values: the matrix taken, value checks, typed sums, string order. */
@NullMarked
package io.scflux.ops.values;

import org.jspecify.annotations.NullMarked;

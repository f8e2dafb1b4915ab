/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** Linear algebra the steps share: the leading eigenpairs of a symmetric matrix. */
@NullMarked
package io.scflux.ops.linalg;

import org.jspecify.annotations.NullMarked;

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** File safety: a file's identity stamp, guards against writing over what a run still reads, and writes behind a temporary name. */
@NullMarked
package io.scflux.io.safety;

import org.jspecify.annotations.NullMarked;

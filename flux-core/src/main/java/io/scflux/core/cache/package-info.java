/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
@NullMarked
package io.scflux.core.cache;

import org.jspecify.annotations.NullMarked;

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */

/** A step's parameters as one declaration: names, types, defaults and bounds that the command line, the service and Python are built from. */
@NullMarked
package io.scflux.ops.parameter;

import org.jspecify.annotations.NullMarked;

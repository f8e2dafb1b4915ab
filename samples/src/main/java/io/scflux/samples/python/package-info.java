/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
/**
 * The engine of the Python package: one {@link io.scflux.samples.python.Session} per Python session, started in the
 * interpreter's process through JPype, which holds the containers a notebook works on (X a lazy view, never loaded)
 * and runs the catalog's steps on them as {@link io.scflux.samples.python.Pass}es that Python waits for in short
 * slices, so that Ctrl-C cancels a pass and leaves the container usable.
 */
@NullMarked
package io.scflux.samples.python;

import org.jspecify.annotations.NullMarked;

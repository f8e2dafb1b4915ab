/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.ops.log1p.Log1p;
import picocli.CommandLine.Command;

/** {@code scflux log1p}: scanpy's log1p ({@link Log1p}), applied as X is written. */
@Command(
        name = "log1p",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Replaces every value x of X with ln(1 + x), as scanpy's log1p (float32 stays float32, other "
                    + "types become float64), and sets uns['log1p']."
        })
final class Log1pCommand extends OpCommand {}

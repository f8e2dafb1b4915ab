/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import io.scflux.ops.normalize.NormalizeTotal;
import picocli.CommandLine.Command;

/** {@code scflux normalize}: scanpy's normalize_total ({@link NormalizeTotal}). */
@Command(
        name = "normalize",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Scales each cell to the same total, as scanpy's normalize_total: one pass over X computes "
                    + "the cell totals, the output X holds the counts divided by total / target sum (float32)."
        })
final class NormalizeCommand extends OpCommand {}

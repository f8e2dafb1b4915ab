/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import picocli.CommandLine.Command;

/** {@code scflux scale}: each gene to zero mean and unit variance as scanpy's {@code sc.pp.scale}. */
@Command(
        name = "scale",
        mixinStandardHelpOptions = true,
        sortOptions = false,
        description = {
            "Scales each gene to unit variance and zero mean as scanpy's sc.pp.scale, and adds var mean and "
                    + "std. Centring makes X dense (float64), as in scanpy; it is written as a dense array, block by "
                    + "block."
        })
final class ScaleCommand extends OpCommand {

    @Override
    boolean rereadsX() {
        return true;
    }
}

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops;

import io.scflux.core.InvalidOptionException;
import io.scflux.ops.log1p.Log1pOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import io.scflux.ops.qc.QcMetricsOptions;
import java.util.Objects;

/**
 * The parameters of {@link Preprocess}: those of its three steps. Excluding highly expressed genes needs a pass of
 * its own before the totals, so it is not offered here (use {@link io.scflux.ops.normalize.NormalizeTotal}).
 */
public record PreprocessOptions(QcMetricsOptions qc, NormalizeTotalOptions normalize, Log1pOptions log1p) {

    public PreprocessOptions {
        Objects.requireNonNull(qc, "qc");
        Objects.requireNonNull(log1p, "log1p");
        if (normalize.excludeHighlyExpressed()) {
            throw new InvalidOptionException("preprocess makes one pass over X; excluding highly expressed genes "
                    + "takes two: use NormalizeTotal");
        }
    }

    /** Each step's defaults. */
    public static PreprocessOptions defaults() {
        return new PreprocessOptions(
                QcMetricsOptions.defaults(), NormalizeTotalOptions.defaults(), Log1pOptions.defaults());
    }

    public PreprocessOptions withQc(QcMetricsOptions options) {
        return new PreprocessOptions(options, normalize, log1p);
    }

    public PreprocessOptions withNormalize(NormalizeTotalOptions options) {
        return new PreprocessOptions(qc, options, log1p);
    }

    public PreprocessOptions withLog1p(Log1pOptions options) {
        return new PreprocessOptions(qc, normalize, options);
    }
}

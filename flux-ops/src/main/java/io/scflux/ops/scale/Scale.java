/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.scale;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Pass;
import io.scflux.core.StagedSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.ops.moments.ColumnMoments;
import io.scflux.ops.normalized.ColumnScale;
import io.scflux.ops.normalized.NormalizedView;
import io.scflux.ops.values.ValueCheck;
import reactor.core.publisher.Mono;

/**
 * Scaling to unit variance and zero mean as scanpy's {@code sc.pp.scale}: one pass for each gene's mean and standard
 * deviation (unbiased; a zero deviation is taken as 1), then X becomes a lazy stage that scales every block as it is
 * read (a normalized view takes the scaling on, and stays one view over the counts). Adds {@code var["mean"]} and {@code var["std"]} (float64).
 */
public final class Scale {

    private Scale() {}

    /**
     * Computes the statistics on subscription and emits a copy of {@code input} (left as it is) whose X is the
     * scaling stage over X, var mean and std added. As in
     * scanpy, centring makes X dense; the values are float64 (float32 when X is a dense float32 array, which numpy
     * scales in place).
     */
    public static Mono<AnnData> scale(AnnData input, ScaleOptions options, Streaming streaming) {
        return Mono.defer(() -> {
                    AnnData data = input.copy();
                    BlockSource x = data.x();
                    if (x == null) {
                        throw new IllegalArgumentException("scale needs X, and this AnnData has none");
                    }
                    boolean float32 = x.dtype() == DType.FLOAT32;
                    Mono<ColumnMoments.Sums> moments = ValueCheck.reduce(
                            data,
                            x,
                            new ColumnMoments(x.nCols(), float32, streaming.backend()),
                            "`scale`",
                            ValueCheck.Expect.FINITE,
                            streaming);
                    return moments.map(sums -> {
                        long n = x.nRows();
                        double[] mean = sums.means(n);
                        double[] std = sums.variances(n);
                        for (int c = 0; c < std.length; c++) {
                            std[c] = Math.sqrt(std[c]);
                            if (std[c] == 0) {
                                std[c] = 1;
                            }
                        }
                        data.var().put("mean", ArrayColumn.of(mean));
                        data.var().put("std", ArrayColumn.of(std));
                        boolean float32Array = float32 && x.isDense();
                        ColumnScale stage =
                                new ColumnScale(mean, std, options.zeroCenter(), options.maxValue(), float32Array);
                        DType type = float32Array ? DType.FLOAT32 : DType.FLOAT64;
                        if (x instanceof NormalizedView view && !float32Array) {
                            data.setX(view.withScaling(stage));
                        } else {
                            data.setX(
                                    options.zeroCenter() || x.isDense()
                                            ? StagedSource.densifying(x, stage, x.nCols(), type)
                                            : StagedSource.of(x, stage, x.nCols(), type));
                        }
                        return data;
                    });
                })
                .contextWrite(Pass.named("scale"));
    }
}

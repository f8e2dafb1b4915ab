/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.log1p;

import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.Pass;
import io.scflux.core.StagedSource;
import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.DenseArray;
import io.scflux.ops.normalized.Log1pStage;
import io.scflux.ops.normalized.NormalizedView;
import io.scflux.ops.values.XMatrix;
import java.util.LinkedHashMap;
import java.util.Map;
import reactor.core.publisher.Mono;

/**
 * scanpy's {@code pp.log1p(base)}: X becomes a lazy stage taking {@code log1p} of every stored value (a normalized
 * view takes it on as part of its one function per block), and {@code uns["log1p"] = {"base": base}}. float32 data
 * stay float32; other types become float64, as scanpy casts them. X whose {@code uns} already says
 * {@code log1p} gets scanpy's warning, and is transformed again as scanpy does.
 */
public final class Log1p {

    private Log1p() {}

    /**
     * On subscription, emits a copy of {@code data} (left as it is) whose X is the log1p view, the base recorded.
     * Nothing of X is read: of {@code streaming} only the backend is kept, whose kernel a normalized view's blocks go
     * through.
     */
    public static Mono<AnnData> log1p(AnnData data, Log1pOptions options, Streaming streaming) {
        return Mono.fromCallable(() -> {
                    AnnData out = data.copy();
                    apply(out, options, streaming);
                    return out;
                })
                .contextWrite(Pass.named("log1p"));
    }

    public static void apply(AnnData data, Log1pOptions options, Streaming streaming) {
        BlockSource x = XMatrix.of(data);
        if (data.uns().containsKey("log1p")) {
            streaming.warn("adata.X seems to be already log-transformed.");
        }
        boolean single = x.dtype() == DType.FLOAT32;
        if (x instanceof NormalizedView v && !v.isLog1p()) {
            data.setX(v.withLog1p(options.base(), streaming.backend()));
        } else {
            data.setX(StagedSource.of(
                    x, new Log1pStage(single, options.base()), x.nCols(), single ? DType.FLOAT32 : DType.FLOAT64));
        }
        Map<String, Object> params = new LinkedHashMap<>();
        params.put("base", options.base() == null ? null : DenseArray.scalar(options.base()));
        data.uns().put("log1p", params);
    }
}

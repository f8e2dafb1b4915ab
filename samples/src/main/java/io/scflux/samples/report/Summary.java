/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.report;

import io.scflux.core.BlockSource;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.Frame;
import io.scflux.io.FileMatrix;
import io.scflux.io.MatrixInfo;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.jspecify.annotations.Nullable;

/**
 * What an {@code .h5ad} holds, read from its metadata alone (X is not read): the model {@code scflux info --json}
 * prints and its lines as anndata's repr lays them out. The fuzzer reads every damaged file through it, as info does.
 */
public final class Summary {

    private Summary() {}

    /** The JSON model of {@code data}: shape, X, obs and var columns with their types, the keys of the rest, raw. */
    public static Map<String, @Nullable Object> of(AnnData data) {
        Map<String, @Nullable Object> r = new LinkedHashMap<>();
        r.put("n_obs", data.nObs());
        r.put("n_vars", data.nVars());
        r.put("x", data.x() == null ? null : matrix(data.x()));
        r.put("obs", columns(data.obs()));
        r.put("var", columns(data.var()));
        r.put("obsm", List.copyOf(data.obsm().keySet()));
        r.put("varm", List.copyOf(data.varm().keySet()));
        r.put("layers", List.copyOf(data.layers().keySet()));
        r.put("obsp", List.copyOf(data.obsp().keySet()));
        r.put("varp", List.copyOf(data.varp().keySet()));
        r.put("uns", List.copyOf(data.uns().keySet()));
        if (data.raw() != null) {
            Map<String, @Nullable Object> raw = new LinkedHashMap<>();
            raw.put("n_vars", data.raw().var().size());
            raw.put("x", matrix(data.raw().x()));
            raw.put("var", columns(data.raw().var()));
            r.put("raw", raw);
        } else {
            r.put("raw", null);
        }
        return r;
    }

    private static Map<String, @Nullable Object> matrix(BlockSource x) {
        Map<String, @Nullable Object> m = new LinkedHashMap<>();
        if (x instanceof FileMatrix f) {
            MatrixInfo info = f.info();
            m.put("encoding", info.encoding());
            m.put("dtype", info.dtype().numpyName());
            if ("array".equals(info.encoding())) {
                m.put("shape", List.of(x.nRows(), x.nCols())); // a dense array stores every element
            } else {
                m.put("nnz", info.nnz());
            }
            m.put(
                    "indptr_dtype",
                    info.indptrDtype() == null ? null : info.indptrDtype().numpyName());
            m.put(
                    "indices_dtype",
                    info.indicesDtype() == null ? null : info.indicesDtype().numpyName());
            m.put("compression", info.compression());
            m.put("chunked", info.chunked());
        } else {
            m.put("encoding", null);
            m.put("dtype", x.dtype().numpyName());
        }
        return m;
    }

    private static Map<String, Object> columns(Frame frame) {
        Map<String, Object> m = new LinkedHashMap<>();
        frame.columns().forEach((name, column) -> m.put(name, typeOf(column)));
        return m;
    }

    /** The pandas dtype of a column, with the number of categories of a categorical: {@code category(8)}. */
    private static String typeOf(Column column) {
        return column instanceof CategoricalColumn c
                ? "category(" + c.categories().size() + ")"
                : column.typeName();
    }

    /** The report as anndata's repr lays it out: one line per non-empty part. */
    @SuppressWarnings("unchecked")
    public static String text(AnnData data) {
        Map<String, @Nullable Object> r = of(data);
        StringBuilder sb = new StringBuilder("AnnData object with n_obs x n_vars = ")
                .append(data.nObs())
                .append(" x ")
                .append(data.nVars())
                .append('\n');
        sb.append("    X: ")
                .append(r.get("x") == null ? "none" : matrixLine((Map<String, @Nullable Object>) r.get("x")))
                .append('\n');
        for (String part : List.of("obs", "var", "uns", "obsm", "varm", "layers", "obsp", "varp")) {
            Object v = r.get(part);
            List<String> items = new ArrayList<>();
            if (v instanceof Map<?, ?> columns) {
                columns.forEach((k, type) -> items.add("'" + k + "' " + type));
            } else {
                ((List<String>) Objects.requireNonNull(v, "of() puts every part"))
                        .forEach(k -> items.add("'" + k + "'"));
            }
            if (!items.isEmpty()) {
                sb.append("    ")
                        .append(part)
                        .append(": ")
                        .append(String.join(", ", items))
                        .append('\n');
            }
        }
        if (r.get("raw") instanceof Map<?, ?> raw) {
            sb.append("    raw: n_vars = ")
                    .append(raw.get("n_vars"))
                    .append(", X: ")
                    .append(matrixLine(
                            (Map<String, @Nullable Object>) Objects.requireNonNull(raw.get("x"), "of() puts raw's X")))
                    .append('\n');
        }
        return sb.toString();
    }

    private static String matrixLine(Map<String, @Nullable Object> x) {
        StringBuilder sb = new StringBuilder();
        sb.append(x.get("encoding") == null ? "matrix" : x.get("encoding"))
                .append(' ')
                .append(x.get("dtype"));
        if (x.containsKey("nnz")) {
            sb.append(", nnz ").append(x.get("nnz"));
        }
        if (x.get("shape") instanceof List<?> shape) {
            sb.append(", shape (")
                    .append(shape.get(0))
                    .append(", ")
                    .append(shape.get(1))
                    .append(')');
        }
        if (x.get("indptr_dtype") != null) {
            sb.append(", indptr ")
                    .append(x.get("indptr_dtype"))
                    .append(", indices ")
                    .append(x.get("indices_dtype"));
        }
        if (x.containsKey("compression")) {
            sb.append(", compression ")
                    .append(x.get("compression"))
                    .append(Boolean.TRUE.equals(x.get("chunked")) ? " (chunked)" : " (contiguous)");
        }
        return sb.toString();
    }
}

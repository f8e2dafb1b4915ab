/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.PackedStrings;
import java.nio.file.Path;
import java.util.List;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * Writes counts in Cell Ranger 3's HDF5 feature-barcode layout, as Cell Ranger's {@code filtered_feature_bc_matrix.h5}
 * holds them: {@code /matrix} with {@code data} (int32), {@code indices} and {@code indptr} (int64) compressed by
 * barcode, {@code shape} = [features, barcodes], fixed-length {@code barcodes}, and {@code features/} ({@code id},
 * {@code name}, {@code feature_type}, {@code genome}, {@code _all_tag_keys}). Streamed block by block, atomically.
 */
final class CellRangerWriter extends MatrixWriter {

    private final NativeHdf5.Group group;
    private NativeHdf5.Dataset data;
    private NativeHdf5.Dataset indices;
    private NativeHdf5.Dataset indptr;
    private long nnz;

    private CellRangerWriter(NativeHdf5 file, ElementWriter.Matrix matrix, BlockPlan plan) {
        super(matrix, plan);
        group = file.openGroup(matrix.path());
        try {
            long chunk = Math.max(1, Math.min(WriteLayout.MAX_CHUNK, plan.totalNnz()));
            data = group.extendable("data", DType.INT32, chunk);
            indices = group.extendable("indices", DType.INT64, chunk);
            indptr = group.extendable("indptr", DType.INT64, Math.min(WriteLayout.MAX_CHUNK, rows + 1));
            indptr.appendOffsets(new int[1], 0, 1, 0);
        } catch (RuntimeException e) {
            closeAfter(e);
            throw e;
        }
    }

    /**
     * Writes {@code counts} (X: cells x features of whole non-negative numbers) to {@code target}: barcodes are its
     * obs names, features its var names with var {@code gene_ids}, {@code feature_types} and {@code genome} where
     * present (else the name, "Gene Expression" and "").
     */
    static Mono<Void> write(AnnData counts, Path target, WriteOptions options) {
        if (counts.x() == null) {
            throw new IllegalArgumentException("a Cell Ranger file holds a matrix, and this AnnData has no X");
        }
        ElementWriter.Matrix matrix = new ElementWriter.Matrix("/", CellRangerReader.V3_GROUP, counts.x());
        return H5adWriter.atomically(
                counts,
                target,
                options,
                file -> {
                    annotate(file, counts);
                    return List.of(matrix);
                },
                (file, m) -> MatrixWriter.write(
                        m,
                        b -> requireCounts(b, m.path()),
                        options,
                        (element, plan) -> new CellRangerWriter(file, element, plan)));
    }

    private static void annotate(NativeHdf5 file, AnnData counts) {
        Frame var = counts.var();
        try (NativeHdf5.Group root = file.root()) {
            root.attr("filetype", "matrix");
            root.attr("version", DenseArray.scalar(2L));
            try (NativeHdf5.Group m = root.group(CellRangerReader.V3_GROUP)) {
                m.fixedStrings("barcodes", counts.obs().names()).close();
                m.dataset("shape", DType.INT32, DenseArray.of(new int[] {counts.nVars(), counts.nObs()}))
                        .close();
                try (NativeHdf5.Group f = m.group("features")) {
                    f.fixedStrings("_all_tag_keys", PackedStrings.of(new String[] {"genome"}))
                            .close();
                    f.fixedStrings("feature_type", column(var, "feature_types", "Gene Expression"))
                            .close();
                    f.fixedStrings("genome", column(var, "genome", "")).close();
                    f.fixedStrings("id", var.has("gene_ids") ? column(var, "gene_ids", null) : var.names())
                            .close();
                    f.fixedStrings("name", var.names()).close();
                }
            }
        }
    }

    /** Column {@code name} of {@code var} as strings, or {@code absent} repeated when var has no such column. */
    private static PackedStrings column(Frame var, String name, @Nullable String absent) {
        String[] out = new String[var.size()];
        Column c = var.has(name) ? var.column(name) : null;
        for (int i = 0; i < out.length; i++) {
            out[i] = c == null ? absent : String.valueOf(c.get(i));
        }
        return PackedStrings.of(out);
    }

    /**
     * {@code block}, once it is checked to hold Cell Ranger's counts (whole non-negative numbers that int32 holds);
     * run on the worker that read the block.
     */
    private static RowBlock requireCounts(RowBlock block, String path) {
        float[] v = block.values();
        for (int k = 0; k < block.nnz(); k++) {
            // past int32's range, or a fraction float32 hides: ValueRange refuses it next
            if (!(v[k] >= 0 && v[k] == Math.rint(v[k]))) {
                int row = 0;
                while (block.indptr()[row + 1] <= k) {
                    row++;
                }
                throw new IllegalArgumentException(path + ": Cell Ranger counts are whole non-negative numbers, "
                        + "found " + v[k] + " at cell " + (block.rowStart() + row) + ", gene "
                        + block.indices()[k]);
            }
        }
        return ValueRange.requireHeld(DType.INT32, block, path);
    }

    @Override
    void append(RowBlock block) {
        appendValues(data, block);
        indices.append(block.indices(), DType.INT32, 0, block.nnz());
        indptr.appendOffsets(block.indptr(), 1, block.nRows(), nnz);
        nnz += block.nnz();
    }

    @Override
    NativeHdf5.Node[] nodes() {
        return new NativeHdf5.Node[] {data, indices, indptr, group};
    }
}

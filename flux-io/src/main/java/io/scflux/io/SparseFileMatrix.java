/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockBuffer;
import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.io.hdf5.CsrArrays;
import io.scflux.io.hdf5.CsrStore;
import io.scflux.io.hdf5.ReadStats;
import io.scflux.io.hdf5.Storage;
import io.scflux.io.safety.FileStamp;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;

/**
 * A sparse matrix element streamed in row blocks from CSR arrays: those of the file itself for {@code csr_matrix},
 * or those of a transposed store for {@code csc_matrix} (built on first use, see
 * {@link io.scflux.io.transposed.TransposedStore}).
 */
final class SparseFileMatrix extends FileMatrixBase {

    private final Function<ReadStats, CsrStore> store;
    private volatile @Nullable CsrStore resolved;

    SparseFileMatrix(
            Path file,
            String element,
            MatrixInfo info,
            FileStamp stamp,
            Function<ReadStats, CsrStore> store,
            Serializable shipped) {
        this(file, element, info, info.dtype(), stamp, store, shipped);
    }

    SparseFileMatrix(
            Path file,
            String element,
            MatrixInfo info,
            DType dtype,
            FileStamp stamp,
            Function<ReadStats, CsrStore> store,
            Serializable shipped) {
        super(file, element, info, dtype, stamp, shipped);
        this.store = store;
    }

    private CsrStore store() {
        CsrStore s = resolved;
        if (s == null) {
            synchronized (this) {
                s = resolved;
                if (s == null) {
                    s = store.apply(stats());
                    resolved = s;
                }
            }
        }
        return s;
    }

    private Storage openStorage() {
        CsrStore s = store();
        return Storage.open(s.file(), s.stamp(), stats());
    }

    @Override
    BlockPlan computePlan(PlanTarget target) {
        try (Storage s = openStorage()) {
            return store().arrays().plan(s, target);
        }
    }

    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        try (Storage s = openStorage()) {
            store().arrays().rowNnz(s, rowFrom, count, out);
        }
    }

    @Override
    public RowReader open() {
        CsrArrays arrays = store().arrays();
        Storage s = openStorage();
        return new RowReader() {
            @Override
            public RowBlock read(int blockIndex, long from, long to) {
                return arrays.read(s, blockIndex, from, to);
            }

            @Override
            public void readInto(int blockIndex, long from, long to, BlockBuffer into) {
                arrays.readInto(s, blockIndex, from, to, into);
            }

            @Override
            public void close() {
                s.close();
            }
        };
    }
}

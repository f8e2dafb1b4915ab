/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.io.hdf5.ReadStats;
import io.scflux.io.safety.FileStamp;
import java.io.Serializable;
import java.nio.file.Path;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What every file-backed matrix shares: its file, element path, storage description, counters and plans. Serialized
 * (shipped to another JVM by an engine), it is its file's absolute path and its element, opened again there.
 */
abstract class FileMatrixBase implements FileMatrix, Serializable {

    private final Path file;
    private final String element;
    private final MatrixInfo info;
    private final DType dtype;
    private final ReadStats stats = new ReadStats();
    private final ConcurrentMap<PlanTarget, BlockPlan> plans = new ConcurrentHashMap<>();
    private final Key key;
    private final Serializable shipped;

    FileMatrixBase(Path file, String element, MatrixInfo info, FileStamp stamp, Serializable shipped) {
        this(file, element, info, info.dtype(), stamp, shipped);
    }

    /** As a matrix whose values are declared {@code dtype} rather than the stored type (Cell Ranger's int32 counts). */
    FileMatrixBase(Path file, String element, MatrixInfo info, DType dtype, FileStamp stamp, Serializable shipped) {
        this.file = file;
        this.shipped = shipped;
        this.element = element;
        this.info = info;
        this.dtype = dtype;
        this.key = new Key(file.toAbsolutePath().normalize(), stamp, element);
    }

    /** The file (path, size, modification time) and element: blocks cached under it stay valid while it holds. */
    @Override
    public final Object cacheKey() {
        return key;
    }

    private record Key(Path file, FileStamp stamp, String element) {}

    /**
     * What crosses to another JVM instead of this matrix: what opened it hands it over ({@link FileMatrices}), so
     * that the matrix does not name its opener. Package-private, not private: serialization calls it on the
     * subclasses too.
     */
    final Object writeReplace() {
        return shipped;
    }

    @Override
    public final Path file() {
        return file;
    }

    /** The file itself (for a CSC matrix, the file its row-major copy is made from, never the copy). */
    @Override
    public final Set<Path> files() {
        return Set.of(file);
    }

    @Override
    public final String element() {
        return element;
    }

    @Override
    public final MatrixInfo info() {
        return info;
    }

    @Override
    public final ReadStats stats() {
        return stats;
    }

    @Override
    public final long nRows() {
        return info.nRows();
    }

    @Override
    public final int nCols() {
        return info.nCols();
    }

    @Override
    public final DType dtype() {
        return dtype;
    }

    /** The plan for {@code target}, computed once per target (reading row counts costs a pass over indptr). */
    @Override
    public final BlockPlan plan(PlanTarget target) {
        return plans.computeIfAbsent(target, this::computePlan);
    }

    abstract BlockPlan computePlan(PlanTarget target);

    @Override
    public String describe() {
        return file + ":" + element;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + describe() + ", " + info.encoding() + " " + nRows() + " x " + nCols()
                + "]";
    }
}

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.core.anndata;

import io.scflux.core.BlockSource;
import io.scflux.core.DerivedSource;
import io.scflux.core.SubsetSource;
import java.nio.file.Path;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;

/**
 * The annotated matrix, shaped like anndata's: {@code X} (cells x genes, any {@link BlockSource}: in memory, backed
 * by a file, a subset or a lazy view), {@code obs} and {@code var} dataframes, {@code obsm}/{@code varm} per-axis
 * arrays, {@code obsp}/{@code varp} pairwise matrices, {@code layers}, {@code uns} and {@code raw}.
 *
 * <p>{@code obsm}, {@code varm}, {@code obsp} and {@code varp} entries are a {@link DenseArray}, a sparse
 * {@link BlockSource} or a {@link Frame} whose first axis has the axis length. {@code uns} holds nested maps, dense
 * arrays (scalars have shape {@code []}), structured arrays ({@link RecordArray}), frames and sparse sources.
 */
public final class AnnData {

    private @Nullable BlockSource x;
    private final Frame obs;
    private final Frame var;
    private final Map<String, BlockSource> layers = new LinkedHashMap<>();
    private final Map<String, Object> obsm = new LinkedHashMap<>();
    private final Map<String, Object> varm = new LinkedHashMap<>();
    private final Map<String, Object> obsp = new LinkedHashMap<>();
    private final Map<String, Object> varp = new LinkedHashMap<>();
    private final Map<String, Object> uns = new LinkedHashMap<>();
    private @Nullable Raw raw;
    /** Columns a pass over X makes on its way, not in obs and var yet; null when none. */
    private @Nullable PendingColumns pending;

    /** A container over {@code x} (may be null, as in an X-less file) with these obs and var. */
    public AnnData(@Nullable BlockSource x, Frame obs, Frame var) {
        this.obs = Objects.requireNonNull(obs, "obs");
        this.var = Objects.requireNonNull(var, "var");
        setX(x);
    }

    /** A container over {@code x} with obs and var indexed "0", "1", ... */
    public static AnnData of(BlockSource x) {
        return new AnnData(x, Frame.ofRange(Math.toIntExact(x.nRows())), Frame.ofRange(x.nCols()));
    }

    public int nObs() {
        return obs.size();
    }

    public int nVars() {
        return var.size();
    }

    /** The main matrix, or null when the container has none. */
    public @Nullable BlockSource x() {
        return x;
    }

    public AnnData setX(@Nullable BlockSource newX) {
        if (newX != null) {
            checkShape("X", newX, nObs(), nVars());
        }
        this.x = newX;
        return this;
    }

    public Frame obs() {
        return obs;
    }

    public Frame var() {
        return var;
    }

    /** Layers by name, in order (read-only; use {@link #putLayer}). */
    public Map<String, BlockSource> layers() {
        return Collections.unmodifiableMap(layers);
    }

    public AnnData putLayer(String name, BlockSource layer) {
        checkShape("layers/" + name, layer, nObs(), nVars());
        layers.put(name, layer);
        return this;
    }

    public Map<String, Object> obsm() {
        return Collections.unmodifiableMap(obsm);
    }

    public AnnData putObsm(String name, Object value) {
        obsm.put(name, checkAxis("obsm/" + name, value, nObs(), -1));
        return this;
    }

    public Map<String, Object> varm() {
        return Collections.unmodifiableMap(varm);
    }

    public AnnData putVarm(String name, Object value) {
        varm.put(name, checkAxis("varm/" + name, value, nVars(), -1));
        return this;
    }

    public Map<String, Object> obsp() {
        return Collections.unmodifiableMap(obsp);
    }

    public AnnData putObsp(String name, Object value) {
        obsp.put(name, checkAxis("obsp/" + name, value, nObs(), nObs()));
        return this;
    }

    public Map<String, Object> varp() {
        return Collections.unmodifiableMap(varp);
    }

    public AnnData putVarp(String name, Object value) {
        varp.put(name, checkAxis("varp/" + name, value, nVars(), nVars()));
        return this;
    }

    /** Unstructured annotations, modifiable in place (nested maps, dense arrays, frames, sparse sources). */
    public Map<String, Object> uns() {
        return uns;
    }

    public @Nullable Raw raw() {
        return raw;
    }

    /** Sets {@code raw}, which must hold counts: a {@link Raw} refuses a normalized or staged view. */
    public AnnData setRaw(@Nullable Raw newRaw) {
        if (newRaw != null && newRaw.x().nRows() != nObs()) {
            throw new IllegalArgumentException(
                    "raw has " + newRaw.x().nRows() + " rows, the container " + nObs() + " cells");
        }
        this.raw = newRaw;
        return this;
    }

    /**
     * The files the container's matrices are read from ({@link BlockSource#files}): X's, the layers', raw's and those
     * of the sparse or computed entries of obsm, varm, obsp, varp and uns. What a writer must not write over.
     *
     * @return the files, in the order X, layers, obsm, varm, obsp, varp, uns, raw; empty for a container in memory
     */
    public Set<Path> files() {
        Set<Path> files = new LinkedHashSet<>();
        if (x != null) {
            files.addAll(x.files());
        }
        for (Collection<?> values :
                List.of(layers.values(), obsm.values(), varm.values(), obsp.values(), varp.values(), uns.values())) {
            addFiles(values, files);
        }
        if (raw != null) {
            files.addAll(raw.x().files());
            addFiles(raw.varm().values(), files);
        }
        return Collections.unmodifiableSet(files);
    }

    /** Adds the files of the sources among {@code values}, looking into nested maps and lists (uns). */
    private static void addFiles(Collection<?> values, Set<Path> files) {
        for (Object v : values) {
            if (v instanceof BlockSource s) {
                files.addAll(s.files());
            } else if (v instanceof Map<?, ?> m) {
                addFiles(m.values(), files);
            } else if (v instanceof Collection<?> c) {
                addFiles(c, files);
            }
        }
    }

    /**
     * A copy that can be changed without changing this container, cheaply: X, layers, obsm, varm, obsp, varp and raw
     * are the same sources and arrays (nothing in scflux changes them in place), obs and var are new frames over the
     * same columns (a column put in one is not in the other), uns a new map of the same entries. What a step returns
     * in place of the container it was given.
     */
    public AnnData copy() {
        AnnData out = new AnnData(x, obs.copy(), var.copy());
        out.layers.putAll(layers);
        out.obsm.putAll(obsm);
        out.varm.putAll(varm);
        out.obsp.putAll(obsp);
        out.varp.putAll(varp);
        out.uns.putAll(uns);
        out.raw = raw;
        out.pending = pending;
        return out;
    }

    /**
     * The cells {@code rows} and genes {@code cols}, as anndata's {@code adata[rows, cols]}: X and layers become
     * views that read the selected rows and re-index columns per block (nothing copied; a computed view keeps the
     * statistics it was computed with, {@link DerivedSource#select}); obs, var, obsm and varm are taken (the frames are new, so columns
     * added to the subset do not appear in this container); uns is shared; raw keeps all its genes and the selected
     * cells.
     */
    public AnnData subset(Selection rows, Selection cols) {
        int[] r = rows.resolve(obs);
        int[] c = cols.resolve(var);
        AnnData out = new AnnData(
                x == null ? null : view(x, r, c),
                r == null ? obs.copy() : obs.take(r),
                c == null ? var.copy() : var.take(c));
        layers.forEach((k, v) -> out.putLayer(k, view(v, r, c)));
        obsm.forEach((k, v) -> out.putObsm(k, takeRows(v, r)));
        varm.forEach((k, v) -> out.putVarm(k, takeRows(v, c)));
        obsp.forEach((k, v) -> out.putObsp(k, takeBoth(v, r)));
        varp.forEach((k, v) -> out.putVarp(k, takeBoth(v, c)));
        out.uns.putAll(uns);
        if (raw != null) {
            out.setRaw(raw.rows(r));
        }
        out.pending = pending == null ? null : pending.take(r, c);
        return out;
    }

    /**
     * Columns of obs and var that a pass over X makes on its way and that {@link #complete} puts, or null when none
     * are pending.
     *
     * @return the pending columns, or null
     */
    public @Nullable PendingColumns pending() {
        return pending;
    }

    /**
     * Leaves {@code columns} pending in this container, for {@link #complete} to put (null: none).
     *
     * @param columns what a pass over X will make
     * @return this container
     */
    public AnnData setPending(@Nullable PendingColumns columns) {
        this.pending = columns;
        return this;
    }

    /**
     * This container with its pending columns put into obs and var: a copy holding them, or this one when none are
     * pending. A pass over X that has read every block made them already; else the pass that makes them runs on
     * subscription, its own.
     *
     * @return a cold Mono of the completed container; this one is left as it is
     */
    public Mono<AnnData> complete() {
        return Mono.defer(() -> {
            if (pending == null) {
                return Mono.just(this);
            }
            AnnData out = copy();
            out.pending = null;
            return pending.putInto(out.obs(), out.var()).thenReturn(out);
        });
    }

    /** A matrix's selection: a computed view selects itself (keeping its statistics); others subset. */
    private static BlockSource view(BlockSource s, int @Nullable [] rows, int @Nullable [] cols) {
        if (rows == null && cols == null) {
            return s;
        }
        return s instanceof DerivedSource d ? d.select(rows, cols) : new SubsetSource(s, rows, cols);
    }

    private static Object takeRows(Object v, int @Nullable [] rows) {
        if (rows == null) {
            return v;
        }
        if (v instanceof DenseArray a) {
            return a.take(rows);
        }
        if (v instanceof Frame f) {
            return f.take(rows);
        }
        return new SubsetSource((BlockSource) v, rows, null);
    }

    private static Object takeBoth(Object v, int @Nullable [] idx) {
        if (idx == null) {
            return v;
        }
        if (v instanceof BlockSource s) {
            return new SubsetSource(s, idx, idx);
        }
        DenseArray a = (DenseArray) v;
        long n = a.shape()[1];
        DenseArray rowsTaken = a.take(idx);
        double[] out = new double[idx.length * idx.length];
        for (int i = 0; i < idx.length; i++) {
            for (int j = 0; j < idx.length; j++) {
                out[i * idx.length + j] = rowsTaken.getDouble((int) (i * n + idx[j]));
            }
        }
        return DenseArray.of(io.scflux.core.DType.FLOAT64, out, idx.length, idx.length);
    }

    private static void checkShape(String what, BlockSource s, int rows, int cols) {
        if (s.nRows() != rows || s.nCols() != cols) {
            throw new IllegalArgumentException(
                    what + " is " + s.nRows() + " x " + s.nCols() + ", expected " + rows + " x " + cols);
        }
    }

    private static Object checkAxis(String what, Object v, int n, int cols) {
        long rows;
        long c = -1;
        if (v instanceof DenseArray a) {
            if (a.ndim() < 1) {
                throw new IllegalArgumentException(what + " must have at least one axis");
            }
            rows = a.shape()[0];
            c = a.ndim() > 1 ? a.shape()[1] : -1;
        } else if (v instanceof Frame f) {
            rows = f.size();
        } else if (v instanceof BlockSource s) {
            rows = s.nRows();
            c = s.nCols();
        } else {
            throw new IllegalArgumentException(what + " must be a DenseArray, Frame or BlockSource, got "
                    + (v == null ? "null" : v.getClass().getName()));
        }
        if (rows != n || (cols >= 0 && c != cols)) {
            throw new IllegalArgumentException(what + " has " + rows + " rows" + (cols >= 0 ? " x " + c : "")
                    + ", expected " + n + (cols >= 0 ? " x " + cols : ""));
        }
        return v;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("AnnData object with n_obs x n_vars = ")
                .append(nObs())
                .append(" x ")
                .append(nVars());
        line(sb, "obs", obs.columns().keySet());
        line(sb, "var", var.columns().keySet());
        line(sb, "uns", uns.keySet());
        line(sb, "obsm", obsm.keySet());
        line(sb, "varm", varm.keySet());
        line(sb, "layers", layers.keySet());
        line(sb, "obsp", obsp.keySet());
        line(sb, "varp", varp.keySet());
        return sb.toString();
    }

    private static void line(StringBuilder sb, String name, java.util.Set<String> keys) {
        if (!keys.isEmpty()) {
            sb.append("\n    ").append(name).append(": ");
            String sep = "";
            for (String k : keys) {
                sb.append(sep).append('\'').append(k).append('\'');
                sep = ", ";
            }
        }
    }
}

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.ops.concat;

import io.scflux.core.Backend;
import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.Cleanup;
import io.scflux.core.ColumnMap;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.Resident;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Several sources stacked by rows, as anndata's {@code concat} stacks X, without materializing any: each block is
 * read from one input and its columns re-indexed to the output's on the way (dropped where an inner join has no place
 * for them, a fill value at columns the input lacks when it is not zero).
 *
 * <p>The block plan is the inputs' plans one after the other: no block spans two inputs, every input keeps the
 * blocks it would have alone, so results and cached blocks do not depend on what it is concatenated with. Entry
 * counts are the inputs' own (plus filled columns), an upper bound where an inner join drops columns, so that planning
 * never decodes an input.
 *
 * <p>Blocks stay on their backend ({@link Resident}): the concatenation lives on the first input's, which re-indexes
 * every block ({@link ReindexKernel}: on the device for blocks resident there), and only the blocks of inputs on
 * another backend are moved there (downloaded from theirs, uploaded to it), which is logged once.
 */
public final class ConcatSource implements BlockSource, Resident, java.io.Serializable {

    private static final Logger LOG = LoggerFactory.getLogger(ConcatSource.class);

    private final List<BlockSource> inputs;
    private final @Nullable ColumnMap[] maps;
    private final long[] starts;
    private final int nCols;
    private final float fill;
    private final DType dtype;
    private final Backend[] backends;
    private final AtomicBoolean told = new AtomicBoolean();

    private ConcatSource(List<BlockSource> inputs, @Nullable ColumnMap[] maps, int nCols, float fill) {
        this.inputs = inputs;
        this.maps = maps;
        this.nCols = nCols;
        this.fill = fill;
        this.backends = inputs.stream().map(Resident::of).toArray(Backend[]::new);
        this.starts = new long[inputs.size() + 1];
        DType type = inputs.get(0).dtype(); // of() refuses no inputs
        for (int i = 0; i < inputs.size(); i++) {
            starts[i + 1] = starts[i] + inputs.get(i).nRows();
            if (i > 0) {
                type = DType.promote(type, inputs.get(i).dtype());
            }
        }
        boolean filled = fill != 0 && Arrays.stream(maps).anyMatch(m -> m != null && m.missingCount() > 0);
        boolean fractional = Float.isNaN(fill) || fill != Math.rint(fill);
        this.dtype = filled && fractional && !type.isFloat() ? DType.FLOAT64 : type;
    }

    /**
     * {@code inputs} stacked by rows onto {@code nCols} columns. {@code columnMaps.get(i)[c]} is the output column of
     * column {@code c} of input {@code i}, or -1 to drop it; a null map keeps the input's columns as they are (it must
     * have {@code nCols}). Output columns an input lacks hold {@code fillValue} (0 keeps them implicit, as anndata
     * pads sparse data). The value type is numpy's promotion of the inputs' types.
     */
    public static ConcatSource of(
            List<? extends BlockSource> inputs, List<int @Nullable []> columnMaps, int nCols, float fillValue) {
        if (inputs.isEmpty()) {
            throw new IllegalArgumentException("nothing to concatenate");
        }
        if (columnMaps.size() != inputs.size()) {
            throw new IllegalArgumentException(inputs.size() + " inputs but " + columnMaps.size() + " column maps");
        }
        List<BlockSource> in = List.copyOf(inputs);
        @Nullable ColumnMap[] maps = new ColumnMap[in.size()];
        for (int i = 0; i < maps.length; i++) {
            BlockSource s = in.get(i);
            int[] map = columnMaps.get(i);
            if (map == null) {
                if (s.nCols() != nCols) {
                    throw new IllegalArgumentException(
                            s.describe() + " has " + s.nCols() + " columns, not " + nCols + ", and no column map");
                }
            } else if (map.length != s.nCols()) {
                throw new IllegalArgumentException(
                        s.describe() + " has " + s.nCols() + " columns but its map " + map.length);
            } else {
                maps[i] = ColumnMap.of(map, nCols, s.describe());
            }
        }
        return new ConcatSource(in, maps, nCols, fillValue);
    }

    /** Sources with the same columns stacked by rows. */
    public static ConcatSource of(List<? extends BlockSource> inputs) {
        Objects.requireNonNull(inputs, "inputs");
        List<int @Nullable []> none = new ArrayList<>();
        inputs.forEach(s -> none.add(null));
        return of(inputs, none, inputs.isEmpty() ? 0 : inputs.get(0).nCols(), 0f);
    }

    /** What crosses to another JVM: the inputs and how their columns map (it logs in that JVM). */
    private Object writeReplace() {
        return new Shipped(inputs, maps, nCols, fill);
    }

    private record Shipped(
            List<BlockSource> inputs, @Nullable ColumnMap[] maps, int nCols, float fill)
            implements java.io.Serializable {
        private Object readResolve() {
            return new ConcatSource(inputs, maps, nCols, fill);
        }
    }

    /** The first input's backend, where every block of the concatenation is. */
    @Override
    public Backend backend() {
        return backends[0];
    }

    /** The stacked sources, in order. */
    public List<BlockSource> inputs() {
        return inputs;
    }

    /** Every input's files, in input order. */
    @Override
    public Set<Path> files() {
        Set<Path> files = new LinkedHashSet<>();
        inputs.forEach(s -> files.addAll(s.files()));
        return Collections.unmodifiableSet(files);
    }

    @Override
    public long nRows() {
        return starts[starts.length - 1];
    }

    @Override
    public int nCols() {
        return nCols;
    }

    @Override
    public DType dtype() {
        return dtype;
    }

    /** Dense when every input is (anndata stacks dense arrays densely and anything with a sparse one sparsely). */
    @Override
    public boolean isDense() {
        return inputs.stream().allMatch(BlockSource::isDense);
    }

    /** The inputs' keys with the column maps and fill, or null when an input has none. */
    @Override
    public @Nullable Object cacheKey() {
        List<Object> key = new ArrayList<>();
        key.add("concat");
        key.add(nCols);
        key.add(Float.floatToIntBits(fill));
        for (int i = 0; i < inputs.size(); i++) {
            Object k = inputs.get(i).cacheKey();
            if (k == null) {
                return null;
            }
            key.add(k);
            key.add(maps[i] == null ? "identity" : maps[i].key());
        }
        return List.copyOf(key);
    }

    /**
     * The inputs' own entry counts, plus the filled columns: an upper bound where an inner join drops columns, as
     * counting the kept entries would decode the input once more than reading it does.
     */
    @Override
    public void rowNnz(long rowFrom, int count, int[] out) {
        long row = rowFrom;
        int done = 0;
        while (done < count) {
            int i = inputOf(row);
            int n = (int) Math.min(count - done, starts[i + 1] - row);
            if (done == 0) {
                inputNnz(i, row - starts[i], n, out);
            } else {
                int[] part = new int[n];
                inputNnz(i, row - starts[i], n, part);
                System.arraycopy(part, 0, out, done, n);
            }
            done += n;
            row += n;
        }
    }

    /** Entry counts (an upper bound where columns are dropped) of rows {@code [from, from + n)} of input {@code i}. */
    private void inputNnz(int i, long from, int n, int[] out) {
        inputs.get(i).rowNnz(from, n, out);
        int filled = filled(i);
        if (filled > 0) {
            for (int k = 0; k < n; k++) {
                out[k] += filled;
            }
        }
    }

    /** How many entries of fill input {@code i} adds to each row. */
    private int filled(int i) {
        return maps[i] != null && fill != 0 ? maps[i].missingCount() : 0;
    }

    /**
     * Every input's plan for {@code target}, one after the other (an input that gains no filled columns plans alone,
     * as dropped columns only shrink its blocks).
     */
    @Override
    public BlockPlan plan(PlanTarget target) {
        List<BlockPlan> plans = new ArrayList<>(inputs.size());
        for (int i = 0; i < inputs.size(); i++) {
            if (filled(i) == 0) {
                plans.add(inputs.get(i).plan(target));
            } else {
                ConcatSource one = new ConcatSource(List.of(inputs.get(i)), new ColumnMap[] {maps[i]}, nCols, fill);
                plans.add(BlockPlan.of(one.nRows(), one::rowNnz, target));
            }
        }
        return BlockPlan.concat(target, plans);
    }

    @Override
    public RowReader open() {
        return new Reader();
    }

    @Override
    public String describe() {
        return "concat[" + nRows() + " x " + nCols + "] of " + inputs.size() + " sources, first "
                + inputs.get(0).describe();
    }

    private int inputOf(long row) {
        if (row < 0 || row >= nRows()) {
            throw new IndexOutOfBoundsException("row " + row + " outside [0, " + nRows() + ")");
        }
        int i = Arrays.binarySearch(starts, row);
        i = i >= 0 ? i : -i - 2;
        while (starts[i + 1] == row) {
            i++;
        }
        return i;
    }

    /**
     * Input {@code i}'s block on the concatenation's backend (moved there, and said once, when the input is on
     * another), re-indexed to the output's columns by that backend, as block {@code blockIndex} at {@code rowStart}.
     */
    private RowBlock reindex(int i, RowBlock read, int blockIndex, long rowStart) {
        Backend on = backends[0];
        RowBlock b = read;
        if (backends[i] != on) {
            if (!told.getAndSet(true)) {
                Set<String> names = new LinkedHashSet<>();
                Arrays.stream(backends).forEach(x -> names.add(x.name()));
                LOG.info(
                        "concatenated data are on backends {}; moving the blocks of the inputs not on {} (the first "
                                + "input's backend) there",
                        names,
                        backends[0].name());
            }
            b = on.upload(backends[i].download(read));
        }
        return (maps[i] == null ? b : reindexed(on, b, maps[i])).relocate(blockIndex, rowStart);
    }

    /**
     * {@code b}, on {@code on}, re-indexed by {@code map} where it is when {@code on} has the kernel, else by the
     * host's code on its arrays brought to the heap (the host's own blocks are there already).
     */
    private RowBlock reindexed(Backend on, RowBlock b, ColumnMap map) {
        return on.kernel(ReindexKernel.class)
                .map(k -> k.reindex(b, map, fill))
                .orElseGet(() -> on.upload(map.reindex(on.download(b), fill)));
    }

    /**
     * Blocks of consecutive rows joined into one, on the concatenation's backend: parts resident on a device are
     * joined on the heap (a read across inputs, which plans never make).
     */
    private RowBlock join(List<RowBlock> resident, int blockIndex, long rowStart) {
        Backend on = backends[0];
        List<RowBlock> parts = resident.stream().map(on::download).toList();
        return on.upload(RowBlock.stack(parts, blockIndex, rowStart, nCols, dtype));
    }

    /**
     * Reads from each input through its own reader, opened on the first read that needs it and closed once all of
     * the input's rows have been read and no read of it is in flight, so that a pass over many files holds few open
     * (plans never make a block span inputs; a range that does is read piecewise and joined).
     */
    private final class Reader implements RowReader {

        private final RowReader[] readers = new RowReader[inputs.size()];
        private final long[] rowsRead = new long[inputs.size()];
        private final int[] inFlight = new int[inputs.size()];
        private boolean closed;

        @Override
        public RowBlock read(int blockIndex, long from, long to) {
            if (from >= to) {
                return backends[0].upload(RowBlock.empty(blockIndex, from, 0, nCols));
            }
            int i = inputOf(from);
            if (to <= starts[i + 1]) {
                return reindex(i, readInput(i, blockIndex, from - starts[i], to - starts[i]), blockIndex, from);
            }
            List<RowBlock> parts = new ArrayList<>();
            for (long row = from; row < to; i++) {
                long end = Math.min(to, starts[i + 1]);
                if (end > row) {
                    parts.add(reindex(i, readInput(i, 0, row - starts[i], end - starts[i]), 0, row));
                }
                row = end;
            }
            return join(parts, blockIndex, from);
        }

        /** Rows {@code [from, to)} of input {@code i}, its reader opened if needed and closed when it is done. */
        private RowBlock readInput(int i, int blockIndex, long from, long to) {
            RowReader r;
            synchronized (this) {
                if (closed) {
                    throw new java.util.concurrent.CancellationException("reader closed");
                }
                if (readers[i] == null) {
                    readers[i] = inputs.get(i).open();
                }
                r = readers[i];
                inFlight[i]++;
            }
            try {
                return r.read(blockIndex, from, to);
            } finally {
                RowReader done = null;
                synchronized (this) {
                    inFlight[i]--;
                    rowsRead[i] += to - from;
                    if (inFlight[i] == 0 && rowsRead[i] >= inputs.get(i).nRows() && readers[i] != null) {
                        done = readers[i];
                        readers[i] = null;
                        rowsRead[i] = 0;
                    }
                }
                if (done != null) {
                    done.close();
                }
            }
        }

        @Override
        public void close() {
            RowReader[] open;
            synchronized (this) {
                closed = true;
                open = readers.clone();
            }
            Cleanup.all(Arrays.asList(open), RowReader::close);
        }
    }
}

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.BlockSource;
import io.scflux.core.DType;
import io.scflux.core.RowBlock;
import io.scflux.core.RowReader;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CategoricalColumn;
import io.scflux.core.anndata.Column;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.DenseMatrix;
import io.scflux.core.anndata.Frame;
import io.scflux.core.anndata.NullableColumn;
import io.scflux.core.anndata.PackedStrings;
import io.scflux.core.anndata.Raw;
import io.scflux.core.anndata.RecordArray;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.IntStream;
import java.util.zip.Deflater;
import org.jspecify.annotations.Nullable;

/**
 * The bytes a write of an {@link AnnData} will take on disk, estimated before anything is written, the one estimate
 * of an output's size: {@link H5adWriter} checks it against the free space before it creates the file, and the
 * service against its results' quota. It walks the elements as {@link ElementWriter} and {@link MatrixWriter} write
 * them and counts, for each,
 * <ul>
 * <li>its values as stored: a streamed matrix's {@code data}, {@code indices} and {@code indptr} in whole chunks (the
 * writer pads the last one, and HDF5 allocates whole chunks), in the types the writer picks (the source's dtype,
 * int32 indices unless past 2^31); an annotation's values contiguous; a string as its 16-byte reference in the
 * dataset and its object in the global heap (16 bytes of header, the UTF-8 bytes rounded up to 8);</li>
 * <li>what HDF5 adds, measured with the library scflux links ({@link #GROUP}, {@link #DATASET}, {@link #CHUNK_INDEX},
 * {@link #HEAP_SLACK});</li>
 * <li>with gzip, values at the ratio deflate gives on a sample of them at the file's level: a few blocks of each
 * streamed matrix (first, middle and last, as the writer lays them out), the first values of each annotation.</li>
 * </ul>
 * The sum is raised by {@link #HEADROOM} (the heap's and the allocator's slack, a sample that deflated better than the
 * rest), so that it lies at or a little above what is written: within 1.2 times on the fixtures and generated data
 * {@code OutputSizeTest} writes. The entries of a matrix are its plan's, an upper bound where a selection or a stage
 * may drop some (then the estimate is higher than the file). Columns pending until X is read
 * ({@link io.scflux.core.anndata.PendingColumns}) are not made, which would take that read: {@link #DEFERRED_COLUMNS}
 * float64 columns in obs and as many in var stand for them.
 */
final class OutputSize {

    /** The superblock, the root group and the attributes of an anndata file. */
    static final long FILE = 4_300;
    /** A group (object header with its attributes, B-tree node, local heap, symbol table node). */
    static final long GROUP = 980;
    /** A dataset's object header with its encoding attributes. */
    static final long DATASET = 520;
    /** The B-tree of a chunked dataset, per 64 chunks (none before its first chunk). */
    static final long CHUNK_INDEX = 2_100;
    /** A string's reference in its dataset or attribute (heap collection, object index, length). */
    static final long REFERENCE = 16;
    /** The header of a string's object in the global heap, before its bytes (rounded up to 8). */
    static final long HEAP_OBJECT = 16;
    /** What deflate leaves of the references, which differ little from one string to the next. */
    static final double REFERENCE_RATIO = 0.3;
    /**
     * The room the global heap leaves unused, per byte of the file's strings, at most {@link #MAX_HEAP_SLACK}: the
     * library grows its collections as the strings come and may leave the tail of the last growth empty (measured
     * with one dataset of strings: from none to 45 % for a thousand strings, under 0.2 % past 50,000).
     */
    static final double HEAP_SLACK = 0.3;

    static final long MAX_HEAP_SLACK = 20 << 10;
    /** What the first strings of a file take more: the heap's first collection, allocated whole. */
    static final long FIRST_COLLECTION = 2048;
    /** Columns taken to stand for those obs, and those var, get once X is read. */
    static final int DEFERRED_COLUMNS = 16;
    /** What the estimate adds to the sum of its parts. */
    static final double HEADROOM = 1.04;

    /** Values sampled per block of a streamed matrix, per annotation, to measure what deflate makes of them. */
    private static final int SAMPLE_VALUES = 1 << 18;

    private static final int SAMPLE_BLOCKS = 3;
    /** The most deflate grows a chunk it cannot shrink, per byte. */
    private static final double MAX_RATIO = 1.01;

    private final int gzipLevel;
    private double bytes = FILE;
    /** Bytes of string objects in the global heap so far. */
    private long heap;

    private double raw;
    private double stored;

    private OutputSize(WriteOptions options) {
        this.gzipLevel = options.compression() == WriteOptions.Compression.GZIP ? options.gzipLevel() : -1;
    }

    /**
     * The bytes a write of {@code data} with {@code options} takes, about: see the class comment. May read the
     * plans of its matrices (as the write does next) and, with gzip, a few of their blocks.
     *
     * @param data    what is written
     * @param options how (compression, the block plan)
     * @return the estimate in bytes
     */
    static Estimate of(AnnData data, WriteOptions options) {
        OutputSize size = new OutputSize(options);
        size.anndata(data, options);
        return new Estimate(
                (long) Math.ceil((size.bytes + size.heapSlack()) * HEADROOM),
                size.raw == 0 ? 1 : Math.min(MAX_RATIO, size.stored / size.raw));
    }

    /**
     * An estimate of a file's size.
     *
     * @param bytes the bytes the file will take, about (a little above)
     * @param ratio stored bytes per byte of values staged for the library: 1 uncompressed, the estimated deflate
     *              ratio with gzip
     */
    record Estimate(long bytes, double ratio) {

        /** The size of a write that is not estimated: no check before, every byte counted while writing. */
        static final Estimate UNKNOWN = new Estimate(-1, 1);

        boolean known() {
            return bytes >= 0;
        }

        /** {@code n} bytes in megabytes (10^6) for messages, one decimal, rounded {@code up} or down. */
        static String megabytes(long n, boolean up) {
            double tenths = n / 1e5;
            return String.format(Locale.ROOT, "%.1f MB", (up ? Math.ceil(tenths) : Math.floor(tenths)) / 10);
        }
    }

    private void anndata(AnnData data, WriteOptions options) {
        if (data.x() != null) {
            matrix(data.x(), options);
        }
        for (Map<String, ?> dict :
                List.of(data.obsm(), data.varm(), data.obsp(), data.varp(), data.layers(), data.uns())) {
            dict(dict, options);
        }
        if (data.raw() != null) {
            Raw raw = data.raw();
            bytes += GROUP;
            matrix(raw.x(), options);
            frame(raw.var());
            dict(raw.varm(), options);
        }
        frame(data.obs());
        frame(data.var());
        if (data.pending() != null) {
            bytes += DEFERRED_COLUMNS * (2 * DATASET + 8.0 * (data.nObs() + data.nVars()));
        }
    }

    private void dict(Map<?, ?> entries, WriteOptions options) {
        bytes += GROUP;
        for (Object value : entries.values()) {
            if (value != null) {
                element(value, options);
            }
        }
    }

    private void element(Object value, WriteOptions options) {
        if (value instanceof DenseArray a) {
            array(a);
        } else if (value instanceof RecordArray r) {
            bytes += DATASET;
            for (DenseArray field : r.fields().values()) {
                values(field);
            }
        } else if (value instanceof Map<?, ?> m) {
            dict(m, options);
        } else if (value instanceof Frame f) {
            frame(f);
        } else if (value instanceof BlockSource s) {
            matrix(s, options);
        } else if (value instanceof Column c) {
            column(c);
        } else if (value instanceof String s) {
            bytes += DATASET + REFERENCE + heap(object(s.getBytes(StandardCharsets.UTF_8).length));
        } else if (value instanceof Number || value instanceof Boolean) {
            bytes += DATASET + 8;
        } else if (value.getClass().isArray()) {
            array(DenseArray.of(value));
        }
        // anything else the writer refuses, naming it
    }

    private void frame(Frame frame) {
        bytes += GROUP;
        Map<String, Column> columns = frame.columns();
        for (String name : columns.keySet()) {
            bytes += REFERENCE + heap(object(name.getBytes(StandardCharsets.UTF_8).length)); // column-order
        }
        array(DenseArray.of(frame.names()));
        for (Column c : columns.values()) {
            column(c);
        }
    }

    private void column(Column column) {
        if (column instanceof ArrayColumn a && a.isComputed()) {
            bytes += DATASET;
            fixed((long) a.size() * a.dtype().size(), a.size(), null);
        } else if (column instanceof ArrayColumn a) {
            array(a.values());
        } else if (column instanceof CategoricalColumn c) {
            bytes += GROUP + DATASET;
            fixed((long) c.size() * c.codeType().size(), c.size(), null);
            array(c.categories());
        } else if (column instanceof NullableColumn n) {
            bytes += GROUP + 2 * DATASET;
            values(n.values());
            fixed(n.mask().length, n.mask().length, null);
        }
    }

    private void array(DenseArray a) {
        bytes += DATASET;
        values(a);
    }

    /** The values of {@code a} in a dataset of its own (header counted by the caller). */
    private void values(DenseArray a) {
        if (a.dtype() == DType.STRING) {
            long objects = 0;
            if (a.data() instanceof PackedStrings p) {
                for (int i = 0; i < p.size(); i++) {
                    objects += object(p.end(i) - p.start(i));
                }
            } else {
                for (String s : a.strings()) {
                    objects += object(s == null ? 0 : s.getBytes(StandardCharsets.UTF_8).length);
                }
            }
            bytes += REFERENCE * a.size() + heap(objects);
            if (gzipLevel >= 0 && a.size() > 0) { // the references deflate to a fraction
                bytes -= (1 - REFERENCE_RATIO) * REFERENCE * a.size();
                bytes += index((a.size() + WriteLayout.CHUNK_ELEMENTS - 1) / WriteLayout.CHUNK_ELEMENTS);
            }
            return;
        }
        long n = a.size();
        fixed(n * a.dtype().size(), n, a);
    }

    /**
     * A contiguous dataset of {@code n} elements taking {@code rawBytes}; chunked and deflated when the file
     * compresses (not when empty), at the ratio of its first values ({@code values}; null: not sampled, counted
     * whole).
     */
    private void fixed(long rawBytes, long n, @Nullable DenseArray values) {
        if (gzipLevel < 0 || n == 0) {
            bytes += rawBytes;
            return;
        }
        double ratio = values == null ? 1 : deflateRatio(sample(values));
        long chunks = (n + WriteLayout.CHUNK_ELEMENTS - 1) / WriteLayout.CHUNK_ELEMENTS;
        bytes += rawBytes * ratio + index(chunks);
        raw += rawBytes;
        stored += rawBytes * ratio;
    }

    /** The heap object of a string of {@code length} UTF-8 bytes. */
    private static long object(int length) {
        return HEAP_OBJECT + ((length + 7L) & ~7L);
    }

    /** Counts {@code objects} bytes of string objects in the global heap. */
    private double heap(long objects) {
        heap += objects;
        return objects;
    }

    /**
     * What the global heap takes beyond its objects: its first collection, allocated whole, and the room its
     * collections leave unused (the strings of one dataset fill the room the last left).
     */
    private double heapSlack() {
        return heap == 0 ? 0 : FIRST_COLLECTION + Math.min(HEAP_SLACK * heap, MAX_HEAP_SLACK);
    }

    /** The chunk index of a dataset of {@code chunks} chunks. */
    private static long index(long chunks) {
        return CHUNK_INDEX * ((chunks + 63) / 64);
    }

    /** A matrix as {@link ElementWriter} and {@link MatrixWriter} write it. */
    private void matrix(BlockSource source, WriteOptions options) {
        if (source instanceof DenseMatrix d) {
            array(d.values());
            return;
        }
        long rows = source.nRows();
        int cols = source.nCols();
        DType valueType = source.dtype();
        if (source.isDense() && cols > 0) {
            long chunkRows = Math.max(1, Math.min(rows, WriteLayout.MAX_CHUNK / Math.max(1, cols)));
            long chunks = (rows + chunkRows - 1) / chunkRows;
            long rawBytes = chunks * chunkRows * cols * valueType.size();
            bytes += DATASET + index(chunks);
            if (gzipLevel < 0) {
                streamed(rawBytes, 1);
            } else { // the padding of the last chunk deflates to nothing
                streamed(rows * cols * valueType.size(), deflateRatio(denseSample(source, options, valueType)));
            }
            return;
        }
        BlockPlan plan = source.plan(options.plan());
        long nnz = plan.totalNnz();
        boolean int32 = Math.max(nnz, Math.max(rows, cols)) <= WriteLayout.INT32_LIMIT;
        DType index = int32 ? DType.INT32 : DType.INT64;
        long chunk = Math.max(1, Math.min(WriteLayout.MAX_CHUNK, nnz));
        long entryChunks = (nnz + chunk - 1) / chunk;
        long pointerChunk = Math.min(WriteLayout.MAX_CHUNK, rows + 1);
        long pointerChunks = (rows + 1 + pointerChunk - 1) / pointerChunk;
        bytes += GROUP + 3 * DATASET + 2 * index(entryChunks) + index(pointerChunks);
        long padded = entryChunks * chunk;
        if (gzipLevel < 0) {
            streamed(padded * (valueType.size() + index.size()) + pointerChunks * pointerChunk * index.size(), 1);
            return;
        }
        double[] ratios = sparseRatios(source, plan, valueType, index); // the padding deflates to nothing
        streamed(nnz * valueType.size(), ratios[0]);
        streamed(nnz * index.size(), ratios[1]);
        streamed((rows + 1) * index.size(), ratios[2]);
    }

    private void streamed(long rawBytes, double ratio) {
        bytes += rawBytes * ratio;
        raw += rawBytes;
        stored += rawBytes * ratio;
    }

    /** The blocks of {@code plan} sampled: the first, the middle and the last. */
    private static int[] sampledBlocks(BlockPlan plan) {
        int n = plan.size();
        return n <= SAMPLE_BLOCKS ? IntStream.range(0, n).toArray() : new int[] {0, n / 2, n - 1};
    }

    /** Deflate's ratios on the sampled blocks' values, indices and row pointers, as the file stores them. */
    private double[] sparseRatios(BlockSource source, BlockPlan plan, DType valueType, DType index) {
        Deflate values = new Deflate(gzipLevel);
        Deflate indices = new Deflate(gzipLevel);
        Deflate pointers = new Deflate(gzipLevel);
        try (RowReader reader = source.open()) {
            for (int b : sampledBlocks(plan)) {
                RowBlock block = reader.read(b, plan.rowStart(b), plan.rowEnd(b));
                int n = Math.min(block.nnz(), SAMPLE_VALUES);
                ByteBuffer v = buffer(n, valueType.size());
                ByteBuffer i = buffer(n, index.size());
                for (int k = 0; k < n; k++) {
                    put(v, valueType, block.values()[k]);
                    put(i, index, block.indices()[k]);
                }
                int rows = Math.min(block.nRows(), SAMPLE_VALUES);
                ByteBuffer p = buffer(rows, index.size());
                for (int r = 1; r <= rows; r++) {
                    put(p, index, plan.nnzStart(b) + block.indptr()[r]);
                }
                values.add(v);
                indices.add(i);
                pointers.add(p);
            }
        } catch (Exception e) {
            return new double[] {1, 1, 1}; // the write will meet what failed here, and say it
        }
        return new double[] {values.ratio(), indices.ratio(), pointers.ratio()};
    }

    /** The first sampled block of a dense source, row-major, as the file stores it. */
    private ByteBuffer denseSample(BlockSource source, WriteOptions options, DType valueType) {
        BlockPlan plan = source.plan(options.plan());
        int cols = source.nCols();
        ByteBuffer all = buffer(0, 1);
        if (plan.size() == 0) {
            return all;
        }
        try (RowReader reader = source.open()) {
            int b = plan.size() / 2;
            RowBlock block = reader.read(b, plan.rowStart(b), plan.rowEnd(b));
            int rows = Math.max(1, Math.min(block.nRows(), SAMPLE_VALUES / Math.max(1, cols)));
            rows = Math.min(rows, block.nRows());
            float[] row = new float[cols];
            all = buffer(rows * cols, valueType.size());
            for (int r = 0; r < rows; r++) {
                Arrays.fill(row, 0f);
                for (int k = block.indptr()[r]; k < block.indptr()[r + 1]; k++) {
                    row[block.indices()[k]] = block.values()[k];
                }
                for (float x : row) {
                    put(all, valueType, x);
                }
            }
        } catch (Exception e) {
            return buffer(0, 1);
        }
        return all;
    }

    /** The first values of {@code a} as the file stores them. */
    private static ByteBuffer sample(DenseArray a) {
        int n = Math.min(a.size(), SAMPLE_VALUES);
        ByteBuffer b = buffer(n, a.dtype().size());
        for (int i = 0; i < n; i++) {
            put(b, a.dtype(), a.getDouble(i));
        }
        return b;
    }

    private static ByteBuffer buffer(long n, int size) {
        return ByteBuffer.allocate(Math.toIntExact(n * size)).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static void put(ByteBuffer b, DType type, double x) {
        switch (type) {
            case FLOAT32 -> b.putFloat((float) x);
            case FLOAT64 -> b.putDouble(x);
            default -> {
                long v = (long) x;
                for (int k = 0; k < type.size(); k++) {
                    b.put((byte) (v >>> (8 * k)));
                }
            }
        }
    }

    /** What deflate makes of {@code sample}: 1 when there is nothing to sample. */
    private double deflateRatio(ByteBuffer sample) {
        Deflate d = new Deflate(gzipLevel);
        d.add(sample);
        return d.ratio();
    }

    /** Bytes deflated at one level, summed over the samples added, as the HDF5 deflate filter compresses a chunk. */
    private static final class Deflate {
        private final int level;
        private long in;
        private long out;

        Deflate(int level) {
            this.level = level;
        }

        void add(ByteBuffer filled) {
            byte[] bytes = Arrays.copyOf(filled.array(), filled.position());
            if (bytes.length == 0) {
                return;
            }
            Deflater deflater = new Deflater(level);
            try {
                deflater.setInput(bytes);
                deflater.finish();
                byte[] chunk = new byte[1 << 16];
                while (!deflater.finished()) {
                    out += deflater.deflate(chunk);
                }
                in += bytes.length;
            } finally {
                deflater.end();
            }
        }

        /** Stored bytes per byte in (deflate may grow incompressible bytes a little, by its block headers). */
        double ratio() {
            return in == 0 ? 1 : Math.min(MAX_RATIO, (double) out / in);
        }
    }
}

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.transposed;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.ExactValues;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.Settings;
import io.scflux.core.TemporaryFiles;
import io.scflux.io.hdf5.CopySums;
import io.scflux.io.hdf5.CsrArrays;
import io.scflux.io.hdf5.CsrStore;
import io.scflux.io.hdf5.Decode;
import io.scflux.io.hdf5.ReadStats;
import io.scflux.io.hdf5.Storage;
import io.scflux.io.hdf5.StoredArray;
import io.scflux.io.safety.FileStamp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributeView;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.zip.CRC32C;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A CSR copy of a CSC matrix element, made once out of core so that CSC files stream row blocks in bounded memory,
 * and reused while the source file is unchanged (the name holds a hash of its path, element, size and time).
 *
 * <p>Building reads the CSC indices once to count each row's entries, then streams the columns and scatters each
 * entry into a bucket of rows that fits in memory (spilled to disk when there is more than one), and lays each
 * bucket out in row order. Columns are visited in order, so entries stay sorted by column within every row.
 *
 * <p>The store is one little-endian file: a 64-byte header, int64 indptr, int32 indices, the values (float32, or the
 * input's own type where float32 would change some of its values: {@link #valueType}), then the
 * CRC32C of each array's chunks of {@link #CHUNK} elements and, last, one CRC32C of the header and those sums. The sums
 * are taken from the bytes in memory as they are written; a store whose header or sums do not match is built again,
 * and every chunk is checked as it is read ({@link CopySums}): the cache folder is a file system others may reach (a
 * disk, a backup restored, a user with the folder's rights), and a changed copy must never be read as the input.
 * The spill files of a build carry checksums too ({@link BucketSpill}).
 *
 * <p>Public because the file matrices of the h5ad encoding, in the package above, open a CSC matrix's rows through it.
 */
public final class TransposedStore {

    private static final Logger LOG = LoggerFactory.getLogger(TransposedStore.class);
    private static final byte[] MAGIC = "SCFLUXT3".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = 64;
    private static final int PIECE = 1 << 20;

    /**
     * Elements per checksummed chunk of each array: 16 Ki (64 KiB of indices or values, 128 KiB of indptr). A read
     * checks the whole chunks it spans in place; the two at its ends are read whole apart (and kept for the next
     * read), which smaller chunks make cheaper.
     */
    static final int CHUNK = 1 << 14;

    /** Entries held in memory per bucket: 16 Mi (128 MiB of indices and 4-byte values, 192 MiB with 8-byte ones). */
    public static final long DEFAULT_BUCKET_ENTRIES = 1L << 24;

    private TransposedStore() {}

    /**
     * The type the copy stores the values of an input of {@code input} in: the input's own where float32 would change
     * some value ({@link ExactValues#mayLose}), so that a write of the matrix read through its copy keeps them; else
     * float32, which holds every value of the smaller types.
     */
    static DType valueType(DType input) {
        return ExactValues.mayLose(input) ? input : DType.FLOAT32;
    }

    /**
     * The stores in the cache folder {@code dir} (none when it does not exist), by name.
     *
     * @param dir the cache folder ({@link Settings#cacheDir})
     * @return the stores' paths
     * @throws IOException when the folder cannot be listed
     */
    public static List<Path> stores(Path dir) throws IOException {
        List<Path> out = new ArrayList<>();
        if (Files.isDirectory(dir)) {
            try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, "transposed-*.csr")) {
                all.forEach(out::add);
            }
        }
        out.sort(null);
        return out;
    }

    /**
     * The CSR store of the CSC element {@code csc} (whose "rows" are the matrix's columns), built if it does not
     * exist yet for this version of the file, in {@code settings}' cache folder and within its room.
     */
    public static CsrStore ensure(
            Path file,
            String element,
            FileStamp stamp,
            CsrArrays csc,
            ReadStats stats,
            long bucketEntries,
            Settings settings) {
        long rows = csc.nCols();
        int cols = Math.toIntExact(csc.nRows());
        long nnz = csc.nnz();
        DType values = valueType(csc.data().dtype());
        int width = values.size();
        Path dir = TemporaryFiles.openScratchDir(settings.cacheDir());
        String base = "transposed-" + hash(file.toAbsolutePath().normalize() + "\0" + element);
        Path target = dir.resolve(base + "-" + hash(stamp.size() + ":" + stamp.modifiedMillis()) + ".csr");
        String source = file + ":" + element;
        int[][] sums;
        try {
            removeOlderVersions(dir, base, target);
            sums = matches(target, rows, cols, nnz, values);
            if (sums != null) {
                LOG.debug("{}:{} is stored by columns; reusing its row-major copy {}", file, element, target);
                // the least recently used stores are the ones a bound removes: the access time says when, as the
                // modification time may not change (readers of the store check it has not)
                Files.getFileAttributeView(target, BasicFileAttributeView.class)
                        .setTimes(null, FileTime.fromMillis(System.currentTimeMillis()), null);
            } else {
                makeRoom(dir, size(rows, nnz, width), settings.cacheMaxBytes(), file + ":" + element);
                LOG.info(
                        "{}:{} is stored by columns (CSC): writing its row-major copy ({} x {}, {} entries, {}) to {}",
                        file,
                        element,
                        rows,
                        cols,
                        nnz,
                        megabytes(size(rows, nnz, width)),
                        target);
                long started = System.nanoTime();
                sums = build(file, source, stamp, csc, stats, bucketEntries, target, values);
                LOG.debug(
                        "wrote {} in {} s",
                        target,
                        String.format(Locale.ROOT, "%.1f", (System.nanoTime() - started) / 1e9));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(
                    file + ":" + element + ": cannot build the transposed store in " + dir + ": " + e.getMessage(), e);
        }
        String name = target.toString();
        long idxBase = align(HEADER + 8 * (rows + 1));
        long valBase = align(idxBase + 4 * nnz);
        FileStamp storeStamp = FileStamp.of(target);
        try (Storage s = Storage.open(target, storeStamp, new ReadStats())) {
            CsrArrays arrays = CsrArrays.of(
                    StoredArray.summed(
                            name,
                            "indptr",
                            DType.INT64,
                            rows + 1,
                            HEADER,
                            CHUNK,
                            new CopySums(target, source, sums[0])),
                    StoredArray.summed(
                            name, "indices", DType.INT32, nnz, idxBase, CHUNK, new CopySums(target, source, sums[1])),
                    StoredArray.summed(
                            name, "data", values, nnz, valBase, CHUNK, new CopySums(target, source, sums[2])),
                    rows,
                    cols,
                    s);
            return new CsrStore(target, storeStamp, arrays);
        }
    }

    private static long align(long offset) {
        return (offset + 63) & ~63L;
    }

    /** The bytes of the store of a matrix of {@code rows} rows and {@code nnz} entries of {@code width} bytes. */
    static long size(long rows, long nnz, int width) {
        return sumsBase(rows, nnz, width) + 4L * (chunks(rows + 1) + 2 * chunks(nnz) + 1);
    }

    /** Where the checksums begin: after the values. */
    private static long sumsBase(long rows, long nnz, int width) {
        return align(align(align(HEADER + 8 * (rows + 1)) + 4 * nnz) + (long) width * nnz);
    }

    private static long chunks(long elements) {
        return (elements + CHUNK - 1) / CHUNK;
    }

    /**
     * Removes the least recently used stores of {@code dir} until {@code need} more bytes fit under {@code max}; an
     * IOException naming {@code what}, the sizes and how to raise the bound when they cannot. A store another process
     * reads stays readable to it (its file lives on until closed).
     */
    static void makeRoom(Path dir, long need, long max, String what) throws IOException {
        if (need > max) {
            throw new IOException(
                    what + ": its row-major copy takes " + need + " bytes, more than the cache's bound of " + max
                            + " bytes: raise SCFLUX_CACHE_MAX (or -Dscflux.cache.max), e.g. to " + ((need >> 30) + 1)
                            + "G");
        }
        List<Stored> stores = new ArrayList<>();
        long total = 0;
        try (DirectoryStream<Path> all = Files.newDirectoryStream(dir, "transposed-*.csr")) {
            for (Path p : all) {
                try {
                    BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class);
                    stores.add(new Stored(p, a.size(), a.lastAccessTime()));
                    total += a.size();
                } catch (java.nio.file.NoSuchFileException e) {
                    // another process removed it meanwhile
                }
            }
        }
        stores.sort(java.util.Comparator.comparing(Stored::lastUsed));
        for (int i = 0; i < stores.size() && total + need > max; i++) {
            Stored old = stores.get(i);
            if (Files.deleteIfExists(old.path())) {
                total -= old.bytes();
                LOG.info(
                        "removed {} ({}), the least recently used row-major copy, to stay under the cache's bound "
                                + "of {}",
                        old.path(),
                        megabytes(old.bytes()),
                        megabytes(max));
            }
        }
    }

    /** A store as listed: its size, and when it was last used (its access time, set on reuse). */
    private record Stored(Path path, long bytes, FileTime lastUsed) {}

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    /**
     * The checksums of {@code store}'s chunks (indptr's, indices', values'), or null when it is missing, of another
     * matrix or another format, or its header and checksums do not match their own checksum: it is then built again.
     */
    private static int @Nullable [][] matches(Path store, long rows, int cols, long nnz, DType values)
            throws IOException {
        if (!Files.isRegularFile(store)) {
            return null;
        }
        long size = size(rows, nnz, values.size());
        if (Files.size(store) != size) {
            return null;
        }
        long at = sumsBase(rows, nnz, values.size());
        try (FileChannel ch = FileChannel.open(store, StandardOpenOption.READ)) {
            ByteBuffer h = readFully(ch, 0, HEADER);
            byte[] magic = new byte[MAGIC.length];
            h.get(magic);
            if (!java.util.Arrays.equals(magic, MAGIC)
                    || h.getLong() != rows
                    || h.getInt() != cols
                    || h.getLong() != nnz
                    || h.getInt() != CHUNK
                    || h.getInt() != values.ordinal()) {
                return null;
            }
            ByteBuffer table = readFully(ch, at, Math.toIntExact(size - at));
            CRC32C crc = new CRC32C();
            crc.update(h.clear());
            crc.update(table.duplicate().limit(table.limit() - 4));
            if ((int) crc.getValue() != table.getInt(table.limit() - 4)) {
                LOG.info(
                        "{}: its checksums do not match (the copy changed after it was written): building it again",
                        store);
                return null;
            }
            int[][] sums = {new int[(int) chunks(rows + 1)], new int[(int) chunks(nnz)], new int[(int) chunks(nnz)]};
            for (int[] a : sums) {
                table.asIntBuffer().get(a);
                table.position(table.position() + 4 * a.length);
            }
            return sums;
        }
    }

    private static ByteBuffer readFully(FileChannel ch, long at, int bytes) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(bytes).order(ByteOrder.LITTLE_ENDIAN);
        while (b.hasRemaining()) {
            if (ch.read(b, at + b.position()) < 0) {
                throw new IOException(bytes + " bytes at offset " + at + " are past the end");
            }
        }
        return b.flip();
    }

    private static void removeOlderVersions(Path dir, String base, Path keep) throws IOException {
        try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, base + "-*.csr")) {
            for (Path p : old) {
                if (!p.equals(keep) && Files.deleteIfExists(p)) {
                    LOG.info("removed {}, the row-major copy of an earlier version of the file", p);
                }
            }
        }
    }

    /**
     * Builds the store {@code target} of {@code file}'s CSC arrays {@code csc} ({@code source}: the file and element,
     * for messages) and returns its checksums (indptr's, indices', values').
     */
    private static int[][] build(
            Path file,
            String source,
            FileStamp stamp,
            CsrArrays csc,
            ReadStats stats,
            long bucketEntries,
            Path target,
            DType values)
            throws IOException {
        long rows = csc.nCols();
        int cols = Math.toIntExact(csc.nRows());
        long nnz = csc.nnz();
        Path folder = Objects.requireNonNull(target.getParent(), "a store's folder"); // a file in the cache folder
        Path temp = TemporaryFiles.newFile(folder, target.getFileName().toString());
        int[][] sums;
        try (Storage s = Storage.open(file, stamp, stats);
                FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            long[] rowptr = rowPointers(s, csc, rows);
            long idxBase = align(HEADER + 8 * (rows + 1));
            long valBase = align(idxBase + 4 * nnz);
            Sums written = new Sums(values.size());
            ByteBuffer header = writeHeader(out, rows, cols, nnz, values, rowptr, written.indptr);
            long[] buckets = buckets(rowptr, bucketEntries);
            int k = buckets.length - 1;
            if (k == 1) {
                scatterInMemory(s, csc, values, rowptr, out, idxBase, valBase, written);
            } else {
                scatterThroughSpills(s, csc, values, rowptr, buckets, out, idxBase, valBase, folder, written, source);
            }
            sums = new int[][] {written.indptr.sums(), written.indices.sums(), written.values.sums()};
            writeSums(out, header, sums, sumsBase(rows, nnz, values.size()));
        } catch (IOException | RuntimeException e) {
            Files.deleteIfExists(temp);
            TemporaryFiles.remove(temp);
            throw e;
        }
        try {
            Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            Files.deleteIfExists(temp);
            throw e;
        } finally {
            TemporaryFiles.remove(temp);
        }
        return sums;
    }

    /** The checksums of the three arrays, taken as they are written. */
    private static final class Sums {
        final CopySums.Writer indptr = new CopySums.Writer(8L * CHUNK);
        final CopySums.Writer indices = new CopySums.Writer(4L * CHUNK);
        final CopySums.Writer values;

        Sums(int valueWidth) {
            values = new CopySums.Writer((long) valueWidth * CHUNK);
        }
    }

    /** Writes the chunks' checksums at {@code at}, then the checksum of {@code header} and them. */
    private static void writeSums(FileChannel out, ByteBuffer header, int[][] sums, long at) throws IOException {
        int n = 1;
        for (int[] a : sums) {
            n += a.length;
        }
        ByteBuffer table = ByteBuffer.allocate(4 * n).order(ByteOrder.LITTLE_ENDIAN);
        for (int[] a : sums) {
            for (int v : a) {
                table.putInt(v);
            }
        }
        CRC32C crc = new CRC32C();
        crc.update(header.duplicate().clear());
        crc.update(table.duplicate().flip());
        table.putInt((int) crc.getValue()).flip();
        writeFully(out, table, at);
    }

    /** Pass 1: each row's entry count from the CSC indices (which are checked against the row count). */
    private static long[] rowPointers(Storage s, CsrArrays csc, long rows) {
        int[] counts = new int[Math.toIntExact(rows)];
        long nnz = csc.nnz();
        int[] idx = new int[(int) Math.min(PIECE, Math.max(1, nnz))];
        StoredArray indices = csc.indices();
        for (long k = 0; k < nnz; k += idx.length) {
            int n = (int) Math.min(idx.length, nnz - k);
            indices.read(s, k, n, b -> Decode.ints(b, indices.dtype(), idx, 0, n));
            for (int i = 0; i < n; i++) {
                int r = idx[i];
                if (r < 0 || r >= rows) {
                    long[] raw = new long[1];
                    indices.read(s, k + i, 1, b -> Decode.longs(b, indices.dtype(), raw, 0, 1));
                    throw indices.error("row index " + raw[0] + " at entry " + (k + i) + " outside [0, " + rows + ")");
                }
                counts[r]++;
            }
        }
        long[] rowptr = new long[counts.length + 1];
        for (int r = 0; r < counts.length; r++) {
            rowptr[r + 1] = rowptr[r] + counts[r];
        }
        return rowptr;
    }

    /** Writes the header and the row pointers (their checksums into {@code sums}); returns the header. */
    private static ByteBuffer writeHeader(
            FileChannel out, long rows, int cols, long nnz, DType values, long[] rowptr, CopySums.Writer sums)
            throws IOException {
        ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.put(MAGIC)
                .putLong(rows)
                .putInt(cols)
                .putLong(nnz)
                .putInt(CHUNK)
                .putInt(values.ordinal())
                .clear();
        writeFully(out, h.duplicate(), 0);
        ByteBuffer b = ByteBuffer.allocate(8 * PIECE).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rowptr.length; r += PIECE) {
            int n = Math.min(PIECE, rowptr.length - r);
            b.clear();
            b.asLongBuffer().put(rowptr, r, n);
            b.limit(8 * n);
            sums.update(b);
            writeFully(out, b, HEADER + 8L * r);
        }
        return h;
    }

    /** Row ranges (as boundaries) each holding at most {@code bucketEntries} entries, unless one row holds more. */
    static long[] buckets(long[] rowptr, long bucketEntries) {
        long[] bounds = new long[16];
        int n = 0;
        int rows = rowptr.length - 1;
        int start = 0;
        for (int r = 0; r < rows; r++) {
            if (r > start && rowptr[r + 1] - rowptr[start] > bucketEntries) {
                if (n + 2 > bounds.length) {
                    bounds = java.util.Arrays.copyOf(bounds, bounds.length * 2);
                }
                bounds[++n] = r;
                start = r;
            }
        }
        bounds[++n] = rows;
        return java.util.Arrays.copyOf(bounds, n + 1);
    }

    /**
     * Takes the CSC entries, each value as the bits of the copy's value type ({@link #valueType}; a 4-byte type's in
     * the low 32).
     */
    private interface EntrySink {
        void accept(int row, int col, long value) throws IOException;
    }

    /** Streams the CSC columns in blocks; column order is what keeps rows sorted by column. */
    private static void forEachEntry(Storage s, CsrArrays csc, DType values, EntrySink sink) throws IOException {
        BlockPlan plan = csc.plan(s, PlanTarget.DEFAULT);
        for (int b = 0; b < plan.size(); b++) {
            RowBlock cb = csc.read(s, b, plan.rowStart(b), plan.rowEnd(b));
            int[] ip = cb.indptr();
            int[] ri = cb.indices();
            float[] f = cb.values();
            long[] v = values == DType.FLOAT32 ? null : bits(cb, values);
            for (int c = 0; c < cb.nRows(); c++) {
                int col = (int) (cb.rowStart() + c);
                for (int k = ip[c]; k < ip[c + 1]; k++) {
                    sink.accept(ri[k], col, v == null ? Float.floatToRawIntBits(f[k]) : v[k]);
                }
            }
        }
    }

    /** The values of {@code b} as a copy of {@code type}, not float32, stores them: as stored where they are. */
    private static long[] bits(RowBlock b, DType type) {
        float[] f = b.values();
        ExactValues stored = b.exact();
        long[] out = new long[b.nnz()];
        for (int k = 0; k < out.length; k++) {
            out[k] = type == DType.FLOAT64
                    ? Double.doubleToRawLongBits(stored != null ? stored.doubleAt(k) : f[k])
                    : stored != null ? stored.longAt(k) : (long) f[k];
        }
        return out;
    }

    /** A bucket's values as the copy stores them: a 4-byte type's in an int[], an 8-byte type's in a long[]. */
    private static final class Values {
        private final int @Nullable [] narrow;
        private final long @Nullable [] wide;

        Values(int n, DType type) {
            narrow = type.size() == 4 ? new int[n] : null;
            wide = narrow == null ? new long[n] : null;
        }

        void set(int at, long bits) {
            if (narrow != null) {
                narrow[at] = (int) bits;
            } else if (wide != null) {
                wide[at] = bits;
            }
        }

        int width() {
            return narrow != null ? 4 : 8;
        }

        /** Values {@code [from, from + n)} into {@code b} (at its position). */
        void put(ByteBuffer b, int from, int n) {
            if (narrow != null) {
                b.asIntBuffer().put(narrow, from, n);
            } else {
                b.asLongBuffer().put(wide, from, n);
            }
        }
    }

    private static void scatterInMemory(
            Storage s,
            CsrArrays csc,
            DType values,
            long[] rowptr,
            FileChannel out,
            long idxBase,
            long valBase,
            Sums sums)
            throws IOException {
        int nnz = Math.toIntExact(csc.nnz());
        int[] cols = new int[nnz];
        Values vals = new Values(nnz, values);
        int[] cursor = new int[rowptr.length - 1];
        for (int r = 0; r < cursor.length; r++) {
            cursor[r] = (int) rowptr[r];
        }
        forEachEntry(s, csc, values, (row, col, value) -> {
            int at = cursor[row]++;
            cols[at] = col;
            vals.set(at, value);
        });
        writeArrays(out, cols, vals, nnz, idxBase, valBase, sums);
    }

    /**
     * Scatters the entries into a spill per bucket ({@link BucketSpill}, checked as it is read back; {@code source},
     * the input, is named when it does not hold what was written), then lays each bucket out in row order.
     */
    private static void scatterThroughSpills(
            Storage s,
            CsrArrays csc,
            DType values,
            long[] rowptr,
            long[] buckets,
            FileChannel out,
            long idxBase,
            long valBase,
            Path dir,
            Sums sums,
            String source)
            throws IOException {
        int k = buckets.length - 1;
        BucketSpill[] spills = new BucketSpill[k];
        try {
            for (int b = 0; b < k; b++) {
                spills[b] = BucketSpill.open(dir, source, values.size());
            }
            forEachEntry(s, csc, values, (row, col, value) -> spills[bucketOf(buckets, row)].add(row, col, value));
            for (int b = 0; b < k; b++) {
                layOutBucket(
                        spills[b], values, rowptr, (int) buckets[b], (int) buckets[b + 1], out, idxBase, valBase, sums);
                spills[b].close();
                spills[b] = null;
            }
        } finally {
            for (BucketSpill spill : spills) {
                if (spill != null) {
                    spill.close();
                }
            }
        }
    }

    private static int bucketOf(long[] buckets, int row) {
        int i = java.util.Arrays.binarySearch(buckets, row);
        return i >= 0 ? i : -i - 2;
    }

    private static void layOutBucket(
            BucketSpill spill,
            DType values,
            long[] rowptr,
            int rowFrom,
            int rowTo,
            FileChannel out,
            long idxBase,
            long valBase,
            Sums sums)
            throws IOException {
        long base = rowptr[rowFrom];
        int n = Math.toIntExact(rowptr[rowTo] - base);
        int[] cols = new int[n];
        Values vals = new Values(n, values);
        int[] cursor = new int[rowTo - rowFrom];
        for (int r = rowFrom; r < rowTo; r++) {
            cursor[r - rowFrom] = (int) (rowptr[r] - base);
        }
        spill.readBack((row, col, value) -> {
            int at = cursor[row - rowFrom]++;
            cols[at] = col;
            vals.set(at, value);
        });
        writeArrays(out, cols, vals, n, idxBase + 4 * base, valBase + (long) vals.width() * base, sums);
    }

    /**
     * Writes {@code n} indices and values at {@code idxAt} and {@code valAt}, their checksums into {@code sums}: the
     * arrays are written front to back, a bucket after the one before.
     */
    private static void writeArrays(FileChannel out, int[] cols, Values vals, int n, long idxAt, long valAt, Sums sums)
            throws IOException {
        int width = vals.width();
        ByteBuffer b = ByteBuffer.allocate(width * PIECE).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i += PIECE) {
            int m = Math.min(PIECE, n - i);
            b.clear();
            b.asIntBuffer().put(cols, i, m);
            b.limit(4 * m);
            sums.indices.update(b);
            writeFully(out, b, idxAt + 4L * i);
            b.clear();
            vals.put(b, i, m);
            b.limit(width * m);
            sums.values.update(b);
            writeFully(out, b, valAt + (long) width * i);
        }
    }

    private static void writeFully(FileChannel out, ByteBuffer b, long position) throws IOException {
        long at = position;
        while (b.hasRemaining()) {
            at += out.write(b, at);
        }
    }

    private static String hash(String s) {
        try {
            byte[] d = MessageDigest.getInstance("SHA-256").digest(s.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(d, 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}

package io.scflux.io;

import io.scflux.core.BlockPlan;
import io.scflux.core.DType;
import io.scflux.core.PlanTarget;
import io.scflux.core.RowBlock;
import io.scflux.core.TemporaryFiles;
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
 * <p>The store is one little-endian file: a 64-byte header, int64 indptr, int32 indices, float32 values.
 */
final class TransposedStore {

    private static final Logger LOG = LoggerFactory.getLogger(TransposedStore.class);
    private static final byte[] MAGIC = "SCFLUXT1".getBytes(StandardCharsets.US_ASCII);
    private static final int HEADER = 64;
    private static final int PIECE = 1 << 20;
    private static final int SPILL_BUFFER = 1 << 18;
    private static final int SPILL_RECORD = 12;

    /** Entries held in memory per bucket: 16 Mi (128 MiB of indices and values). */
    static final long DEFAULT_BUCKET_ENTRIES = 1L << 24;

    private TransposedStore() {
    }

    /** Where stores live: {@link TemporaryFiles#scratchDir()}. */
    static Path cacheDir() {
        return TemporaryFiles.scratchDir();
    }

    /** The default of {@link #maxBytes()}: 64 GiB. */
    static final long DEFAULT_MAX_BYTES = 64L << 30;

    /**
     * The most bytes the stores may take together: {@code -Dscflux.cache.max} or {@code $SCFLUX_CACHE_MAX}
     * ({@link ByteSize}'s forms, e.g. {@code 200G}), else {@link #DEFAULT_MAX_BYTES}.
     */
    static long maxBytes() {
        String max = System.getProperty("scflux.cache.max");
        String from = "-Dscflux.cache.max";
        if (max == null || max.isEmpty()) {
            max = System.getenv("SCFLUX_CACHE_MAX");
            from = "SCFLUX_CACHE_MAX";
        }
        if (max == null || max.isEmpty()) {
            return DEFAULT_MAX_BYTES;
        }
        try {
            return ByteSize.parse(max);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(from + ": " + e.getMessage(), e);
        }
    }

    /** The stores in {@link #cacheDir()} (none when it does not exist), by name. */
    static List<Path> stores() throws IOException {
        Path dir = cacheDir();
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
     * exist yet for this version of the file.
     */
    static SparseFileMatrix.CsrStore ensure(Path file, String element, FileStamp stamp, CsrArrays csc,
                                            ReadStats stats, long bucketEntries) {
        long rows = csc.nCols();
        int cols = Math.toIntExact(csc.nRows());
        long nnz = csc.nnz();
        Path dir = cacheDir();
        String base = "transposed-" + hash(file.toAbsolutePath().normalize() + "\0" + element);
        Path target = dir.resolve(base + "-" + hash(stamp.size() + ":" + stamp.modifiedMillis()) + ".csr");
        try {
            Files.createDirectories(dir);
            removeOlderVersions(dir, base, target);
            if (matches(target, rows, cols, nnz)) {
                LOG.debug("{}:{} is stored by columns; reusing its row-major copy {}", file, element, target);
                // the least recently used stores are the ones a bound removes: the access time says when, as the
                // modification time may not change (readers of the store check it has not)
                Files.getFileAttributeView(target, BasicFileAttributeView.class).setTimes(null,
                        FileTime.fromMillis(System.currentTimeMillis()), null);
            } else {
                makeRoom(dir, size(rows, nnz), maxBytes(), file + ":" + element);
                LOG.info("{}:{} is stored by columns (CSC): writing its row-major copy ({} x {}, {} entries, {}) to {}",
                        file, element, rows, cols, nnz, megabytes(size(rows, nnz)), target);
                long started = System.nanoTime();
                build(file, stamp, csc, stats, bucketEntries, target);
                LOG.debug("wrote {} in {} s", target, String.format(Locale.ROOT, "%.1f",
                        (System.nanoTime() - started) / 1e9));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(file + ":" + element + ": cannot build the transposed store in " + dir
                    + ": " + e.getMessage(), e);
        }
        String name = target.toString();
        long idxBase = align(HEADER + 8 * (rows + 1));
        long valBase = align(idxBase + 4 * nnz);
        FileStamp storeStamp = FileStamp.of(target);
        try (Storage s = Storage.open(target, storeStamp, new ReadStats())) {
            CsrArrays arrays = CsrArrays.of(StoredArray.raw(name, "indptr", DType.INT64, rows + 1, HEADER),
                    StoredArray.raw(name, "indices", DType.INT32, nnz, idxBase),
                    StoredArray.raw(name, "data", DType.FLOAT32, nnz, valBase), rows, cols, s);
            return new SparseFileMatrix.CsrStore(target, storeStamp, arrays);
        }
    }

    private static long align(long offset) {
        return (offset + 63) & ~63L;
    }

    /** The bytes of the store of a matrix of {@code rows} rows and {@code nnz} entries. */
    static long size(long rows, long nnz) {
        return align(align(HEADER + 8 * (rows + 1)) + 4 * nnz) + 4 * nnz;
    }

    /**
     * Removes the least recently used stores of {@code dir} until {@code need} more bytes fit under {@code max}; an
     * IOException naming {@code what}, the sizes and how to raise the bound when they cannot. A store another process
     * reads stays readable to it (its file lives on until closed).
     */
    static void makeRoom(Path dir, long need, long max, String what) throws IOException {
        if (need > max) {
            throw new IOException(what + ": its row-major copy takes " + need + " bytes, more than the cache's bound of " + max
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
                LOG.info("removed {} ({}), the least recently used row-major copy, to stay under the cache's bound "
                        + "of {}", old.path(), megabytes(old.bytes()), megabytes(max));
            }
        }
    }

    /** A store as listed: its size, and when it was last used (its access time, set on reuse). */
    private record Stored(Path path, long bytes, FileTime lastUsed) {
    }

    private static String megabytes(long bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (double) (1 << 20));
    }

    private static boolean matches(Path store, long rows, int cols, long nnz) throws IOException {
        if (!Files.isRegularFile(store)) {
            return false;
        }
        if (Files.size(store) != size(rows, nnz)) {
            return false;
        }
        try (FileChannel ch = FileChannel.open(store, StandardOpenOption.READ)) {
            ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
            while (h.hasRemaining() && ch.read(h, h.position()) > 0) {
                // keep reading the header
            }
            h.flip();
            byte[] magic = new byte[MAGIC.length];
            h.get(magic);
            return java.util.Arrays.equals(magic, MAGIC) && h.getLong() == rows && h.getInt() == cols
                    && h.getLong() == nnz;
        }
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

    private static void build(Path file, FileStamp stamp, CsrArrays csc, ReadStats stats, long bucketEntries,
                              Path target) throws IOException {
        long rows = csc.nCols();
        int cols = Math.toIntExact(csc.nRows());
        long nnz = csc.nnz();
        Path temp = TemporaryFiles.newFile(target.getParent(), ".tmp-" + target.getFileName(), ".part");
        try (Storage s = Storage.open(file, stamp, stats);
             FileChannel out = FileChannel.open(temp, StandardOpenOption.WRITE, StandardOpenOption.READ)) {
            long[] rowptr = rowPointers(s, csc, rows);
            long idxBase = align(HEADER + 8 * (rows + 1));
            long valBase = align(idxBase + 4 * nnz);
            writeHeader(out, rows, cols, nnz, rowptr);
            long[] buckets = buckets(rowptr, bucketEntries);
            int k = buckets.length - 1;
            if (k == 1) {
                scatterInMemory(s, csc, rowptr, out, idxBase, valBase);
            } else {
                scatterThroughSpills(s, csc, rowptr, buckets, out, idxBase, valBase, target.getParent());
            }
            long end = valBase + 4 * nnz;
            if (out.size() < end) {
                out.write(ByteBuffer.allocate(1), end - 1);
            }
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
                    throw indices.error("row index " + raw[0] + " at entry " + (k + i) + " outside [0, " + rows
                            + ")");
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

    private static void writeHeader(FileChannel out, long rows, int cols, long nnz, long[] rowptr)
            throws IOException {
        ByteBuffer h = ByteBuffer.allocate(HEADER).order(ByteOrder.LITTLE_ENDIAN);
        h.put(MAGIC).putLong(rows).putInt(cols).putLong(nnz).clear();
        writeFully(out, h, 0);
        ByteBuffer b = ByteBuffer.allocate(8 * PIECE).order(ByteOrder.LITTLE_ENDIAN);
        for (int r = 0; r < rowptr.length; r += PIECE) {
            int n = Math.min(PIECE, rowptr.length - r);
            b.clear();
            b.asLongBuffer().put(rowptr, r, n);
            b.limit(8 * n);
            writeFully(out, b, HEADER + 8L * r);
        }
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

    /** Streams the CSC columns in blocks; column order is what keeps rows sorted by column. */
    private interface EntrySink {
        void accept(int row, int col, float value) throws IOException;
    }

    private static void forEachEntry(Storage s, CsrArrays csc, EntrySink sink) throws IOException {
        BlockPlan plan = csc.plan(s, PlanTarget.DEFAULT);
        for (int b = 0; b < plan.size(); b++) {
            RowBlock cb = csc.read(s, b, plan.rowStart(b), plan.rowEnd(b));
            int[] ip = cb.indptr();
            int[] ri = cb.indices();
            float[] v = cb.values();
            for (int c = 0; c < cb.nRows(); c++) {
                int col = (int) (cb.rowStart() + c);
                for (int k = ip[c]; k < ip[c + 1]; k++) {
                    sink.accept(ri[k], col, v[k]);
                }
            }
        }
    }

    private static void scatterInMemory(Storage s, CsrArrays csc, long[] rowptr, FileChannel out, long idxBase,
                                        long valBase) throws IOException {
        int nnz = Math.toIntExact(csc.nnz());
        int[] cols = new int[nnz];
        float[] vals = new float[nnz];
        int[] cursor = new int[rowptr.length - 1];
        for (int r = 0; r < cursor.length; r++) {
            cursor[r] = (int) rowptr[r];
        }
        forEachEntry(s, csc, (row, col, value) -> {
            int at = cursor[row]++;
            cols[at] = col;
            vals[at] = value;
        });
        writeArrays(out, cols, vals, nnz, idxBase, valBase);
    }

    private static void scatterThroughSpills(Storage s, CsrArrays csc, long[] rowptr, long[] buckets,
                                             FileChannel out, long idxBase, long valBase, Path dir)
            throws IOException {
        int k = buckets.length - 1;
        Path[] spillPaths = new Path[k];
        FileChannel[] spills = new FileChannel[k];
        ByteBuffer[] pending = new ByteBuffer[k];
        try {
            for (int b = 0; b < k; b++) {
                spillPaths[b] = TemporaryFiles.newFile(dir, ".tmp-spill-", ".part");
                spills[b] = FileChannel.open(spillPaths[b], StandardOpenOption.WRITE, StandardOpenOption.READ);
                pending[b] = ByteBuffer.allocate(SPILL_BUFFER - SPILL_BUFFER % SPILL_RECORD)
                        .order(ByteOrder.LITTLE_ENDIAN);
            }
            forEachEntry(s, csc, (row, col, value) -> {
                int b = bucketOf(buckets, row);
                ByteBuffer buf = pending[b];
                if (!buf.hasRemaining()) {
                    buf.flip();
                    append(spills[b], buf);
                    buf.clear();
                }
                buf.putInt(row).putInt(col).putFloat(value);
            });
            for (int b = 0; b < k; b++) {
                pending[b].flip();
                append(spills[b], pending[b]);
                layOutBucket(spills[b], rowptr, (int) buckets[b], (int) buckets[b + 1], out, idxBase, valBase);
                spills[b].close();
                Files.deleteIfExists(spillPaths[b]);
            }
        } finally {
            for (int b = 0; b < k; b++) {
                if (spills[b] != null) {
                    spills[b].close();
                }
                if (spillPaths[b] != null) {
                    Files.deleteIfExists(spillPaths[b]);
                    TemporaryFiles.remove(spillPaths[b]);
                }
            }
        }
    }

    private static int bucketOf(long[] buckets, int row) {
        int i = java.util.Arrays.binarySearch(buckets, row);
        return i >= 0 ? i : -i - 2;
    }

    private static void append(FileChannel ch, ByteBuffer b) throws IOException {
        while (b.hasRemaining()) {
            ch.write(b);
        }
    }

    private static void layOutBucket(FileChannel spill, long[] rowptr, int rowFrom, int rowTo, FileChannel out,
                                     long idxBase, long valBase) throws IOException {
        long base = rowptr[rowFrom];
        int n = Math.toIntExact(rowptr[rowTo] - base);
        int[] cols = new int[n];
        float[] vals = new float[n];
        int[] cursor = new int[rowTo - rowFrom];
        for (int r = rowFrom; r < rowTo; r++) {
            cursor[r - rowFrom] = (int) (rowptr[r] - base);
        }
        ByteBuffer buf = ByteBuffer.allocate(SPILL_BUFFER - SPILL_BUFFER % SPILL_RECORD)
                .order(ByteOrder.LITTLE_ENDIAN);
        long pos = 0;
        long size = spill.size();
        while (pos < size) {
            buf.clear();
            buf.limit((int) Math.min(buf.capacity(), size - pos));
            while (buf.hasRemaining()) {
                int got = spill.read(buf, pos + buf.position());
                if (got < 0) {
                    throw new IOException("spill file ended early");
                }
            }
            buf.flip();
            pos += buf.remaining();
            while (buf.remaining() >= SPILL_RECORD) {
                int at = cursor[buf.getInt() - rowFrom]++;
                cols[at] = buf.getInt();
                vals[at] = buf.getFloat();
            }
        }
        writeArrays(out, cols, vals, n, idxBase + 4 * base, valBase + 4 * base);
    }

    private static void writeArrays(FileChannel out, int[] cols, float[] vals, int n, long idxAt, long valAt)
            throws IOException {
        ByteBuffer b = ByteBuffer.allocate(4 * PIECE).order(ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < n; i += PIECE) {
            int m = Math.min(PIECE, n - i);
            b.clear();
            b.asIntBuffer().put(cols, i, m);
            b.limit(4 * m);
            writeFully(out, b, idxAt + 4L * i);
            b.clear();
            b.asFloatBuffer().put(vals, i, m);
            b.limit(4 * m);
            writeFully(out, b, valAt + 4L * i);
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

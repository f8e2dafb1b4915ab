/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.jhdf.api.Dataset;
import io.jhdf.api.dataset.ChunkedDataset;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.btree.BTreeV1;
import io.jhdf.dataset.chunked.Chunk;
import io.jhdf.dataset.chunked.ChunkedDatasetBase;
import io.jhdf.dataset.chunked.ChunkedDatasetV3;
import io.jhdf.exceptions.HdfException;
import io.jhdf.filter.PipelineFilterWithData;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.EnumDataType;
import io.jhdf.object.datatype.OrderedDataType;
import io.jhdf.object.message.DataLayout;
import io.jhdf.object.message.DataLayoutMessage.ChunkedDataLayoutMessage;
import io.scflux.core.DType;
import io.scflux.core.ScfluxFormatException;
import java.lang.reflect.AccessibleObject;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.LoggerFactory;

/**
 * Where the bytes of one numeric HDF5 dataset lie, captured once while the file is open: layout, element type and
 * byte order, the address of contiguous data or the table of chunks with their filters. Readers then fetch any
 * range through their own {@link Storage} without going through jhdf again.
 *
 * <p>Public because the file matrices and the transposed store, above this package, read datasets through it.
 */
public final class StoredArray {

    /** HDF5's undefined address: storage never allocated (all fill value). */
    private static final long UNDEFINED = -1L;

    private static final @Nullable Method CHUNK_LOOKUP =
            accessible(() -> ChunkedDatasetBase.class.getDeclaredMethod("getChunkLookup"));
    private static final @Nullable Field LAYOUT_V3 =
            accessible(() -> ChunkedDatasetV3.class.getDeclaredField("layoutMessage"));

    static {
        if (!readsChunkIndexItself()) {
            LoggerFactory.getLogger(StoredArray.class)
                    .warn("this jhdf's chunk index is out of reach (scflux knows "
                            + "jhdf 0.13.0's): chunked datasets are read through jhdf, more slowly");
        }
    }

    private enum Layout {
        CONTIGUOUS,
        CHUNKED,
        COMPACT
    }

    private final String file;
    private final String path;
    private final DType dtype;
    private final int elementSize;
    private final ByteOrder order;
    private final long[] dims;
    private final Layout layout;
    private final long address;
    private final byte @Nullable [] compact;
    private final int @Nullable [] chunkDims;
    private final long @Nullable [] chunkGrid;
    private final long chunkElements;
    private final long @Nullable [] chunkAddress;
    private final int @Nullable [] chunkStored;
    private final int @Nullable [] chunkMask;
    private final int[] filterIds;
    private final ChunkCodec codec;
    /** True when chunks must be decoded by jhdf (a filter scflux does not decode, or no chunk table). */
    private final boolean jhdfChunks;
    /** The checksums of the chunks of an array of scflux's own copies, checked as they are read; else null. */
    private final @Nullable CopySums sums;

    private StoredArray(
            String file,
            String path,
            DType dtype,
            int elementSize,
            ByteOrder order,
            long[] dims,
            Layout layout,
            long address,
            byte @Nullable [] compact,
            int @Nullable [] chunkDims,
            long @Nullable [] chunkAddress,
            int @Nullable [] chunkStored,
            int @Nullable [] chunkMask,
            int[] filterIds,
            boolean jhdfChunks,
            @Nullable CopySums sums) {
        this.sums = sums;
        this.file = file;
        this.path = path;
        this.dtype = dtype;
        this.elementSize = elementSize;
        this.order = order;
        this.dims = dims;
        this.layout = layout;
        this.address = address;
        this.compact = compact;
        this.chunkDims = chunkDims;
        this.chunkAddress = chunkAddress;
        this.chunkStored = chunkStored;
        this.chunkMask = chunkMask;
        this.filterIds = filterIds;
        this.codec = new ChunkCodec(filterIds, elementSize);
        this.jhdfChunks = jhdfChunks;
        if (chunkDims != null) {
            chunkGrid = new long[dims.length];
            long elems = 1;
            for (int d = 0; d < dims.length; d++) {
                chunkGrid[d] = (dims[d] + chunkDims[d] - 1) / chunkDims[d];
                elems *= chunkDims[d];
            }
            chunkElements = elems;
        } else {
            chunkGrid = null;
            chunkElements = 0;
        }
    }

    // The chunk tables, present for the chunked layout (the one that reads chunks); addresses, sizes and masks
    // also absent when jhdf decodes the chunks (no chunk table), a case tested before they are read.
    private int[] chunkShape() {
        return Objects.requireNonNull(chunkDims, "chunked layout only");
    }

    private long[] grid() {
        return Objects.requireNonNull(chunkGrid, "chunked layout only");
    }

    private long[] addresses() {
        return Objects.requireNonNull(chunkAddress, "chunk table only");
    }

    private int[] storedBytes() {
        return Objects.requireNonNull(chunkStored, "chunk table only");
    }

    private int[] filterMasks() {
        return Objects.requireNonNull(chunkMask, "chunk table only");
    }

    /** {@code file: /hdf5/path}, for messages. */
    public String where() {
        return file + ": " + path;
    }

    /** A plain little-endian contiguous array at {@code address} of a non-HDF5 file (scflux's own stores). */
    static StoredArray raw(String file, String path, DType dtype, long length, long address) {
        return new StoredArray(
                file,
                path,
                dtype,
                dtype.size(),
                ByteOrder.LITTLE_ENDIAN,
                new long[] {length},
                Layout.CONTIGUOUS,
                address,
                null,
                null,
                null,
                null,
                null,
                new int[0],
                false,
                null);
    }

    /**
     * A plain little-endian array at {@code address} of scflux's own copies, stored in chunks of {@code chunk}
     * elements one after the other (the last one shorter) whose checksums {@code sums} holds: each chunk is checked
     * as it is read, once per reader while it is kept decoded.
     */
    public static StoredArray summed(
            String file, String path, DType dtype, long length, long address, int chunk, CopySums sums) {
        long grid = (length + chunk - 1) / chunk;
        if (grid != sums.chunks()) {
            throw new ScfluxFormatException(
                    file,
                    path,
                    length + " elements make " + grid + " chunks of " + chunk + ", but " + sums.chunks()
                            + " checksums are stored");
        }
        int size = dtype.size();
        long[] addr = new long[(int) grid];
        int[] stored = new int[(int) grid];
        for (int c = 0; c < grid; c++) {
            addr[c] = address + (long) c * chunk * size;
            stored[c] = (int) (Math.min(chunk, length - (long) c * chunk) * size);
        }
        return new StoredArray(
                file,
                path,
                dtype,
                size,
                ByteOrder.LITTLE_ENDIAN,
                new long[] {length},
                Layout.CHUNKED,
                0,
                null,
                new int[] {chunk},
                addr,
                stored,
                new int[(int) grid],
                new int[0],
                false,
                sums);
    }

    /** Describes {@code ds}, which must hold numbers or bools; {@code fileSize} bounds every address. */
    public static StoredArray of(Dataset ds, long fileSize) {
        DType dtype = Hdf5.dtypeOf(ds);
        if (dtype == DType.STRING) {
            throw Hdf5.error(ds, "expected a numeric dataset, found strings");
        }
        if (ds.getDataType() instanceof io.jhdf.object.datatype.FloatingPoint
                && ds.getDataType().getSize() == 2) {
            throw Hdf5.error(ds, "float16 data is not supported; expected float32, float64 or integers");
        }
        return describe(ds, dtype, fileSize);
    }

    /**
     * Describes a dataset of any element type (strings included: their elements are global-heap references) for
     * {@link #readAll}; {@code dtype} is what the elements mean.
     */
    static StoredArray anyType(Dataset ds, DType dtype, long fileSize) {
        return describe(ds, dtype, fileSize);
    }

    private static StoredArray describe(Dataset ds, DType dtype, long fileSize) {
        String file = Hdf5.fileName(ds);
        String path = Hdf5.path(ds);
        DataType type = ds.getDataType();
        int size = type.getSize();
        ByteOrder order = byteOrder(type);
        long[] dims;
        try {
            dims = ds.getDimensionsAsLong();
        } catch (RuntimeException e) {
            throw Hdf5.error(ds, "unreadable dataspace: " + e.getMessage(), e);
        }
        for (long d : dims) {
            if (d < 0) {
                throw Hdf5.error(ds, "negative dimension in " + Arrays.toString(dims));
            }
        }
        long bytes = product(dims) * size;
        DataLayout layout = ds.getDataLayout();
        try {
            if (layout == DataLayout.CONTIGUOUS) {
                long address = ((ContiguousDataset) ds).getDataAddress();
                if (address != UNDEFINED && bytes > 0 && (address < 0 || address + bytes > fileSize)) {
                    throw Hdf5.error(
                            ds,
                            "file truncated: " + bytes + " bytes of data at offset " + address + " but the file has "
                                    + fileSize);
                }
                return new StoredArray(
                        file,
                        path,
                        dtype,
                        size,
                        order,
                        dims,
                        Layout.CONTIGUOUS,
                        address,
                        null,
                        null,
                        null,
                        null,
                        null,
                        new int[0],
                        false,
                        null);
            }
            if (layout == DataLayout.COMPACT) {
                ByteBuffer all = ((io.jhdf.dataset.DatasetBase) ds).getDataBuffer();
                byte[] copy = new byte[all.remaining()];
                all.get(copy);
                if (copy.length < bytes) {
                    throw Hdf5.error(ds, "compact data holds " + copy.length + " bytes, expected " + bytes);
                }
                return new StoredArray(
                        file,
                        path,
                        dtype,
                        size,
                        order,
                        dims,
                        Layout.COMPACT,
                        0,
                        copy,
                        null,
                        null,
                        null,
                        null,
                        new int[0],
                        false,
                        null);
            }
            return chunked((ChunkedDataset) ds, file, path, dtype, size, order, dims, fileSize);
        } catch (ScfluxFormatException e) {
            throw e;
        } catch (RuntimeException e) {
            throw Hdf5.error(ds, "unreadable storage layout: " + e.getMessage(), e);
        }
    }

    private static StoredArray chunked(
            ChunkedDataset ds,
            String file,
            String path,
            DType dtype,
            int size,
            ByteOrder order,
            long[] dims,
            long fileSize) {
        int[] chunkDims = ds.getChunkDimensions();
        if (chunkDims.length != dims.length) {
            throw Hdf5.error(ds, "chunk rank " + chunkDims.length + " differs from dataset rank " + dims.length);
        }
        for (int c : chunkDims) {
            if (c <= 0) {
                throw Hdf5.error(ds, "invalid chunk shape " + Arrays.toString(chunkDims));
            }
        }
        List<PipelineFilterWithData> filters = ds.getFilters();
        int[] ids = new int[filters.size()];
        boolean jhdf = false;
        for (int i = 0; i < ids.length; i++) {
            ids[i] = filters.get(i).getId();
            jhdf |= !ChunkCodec.supports(ids[i]);
        }
        long grid = 1;
        for (int d = 0; d < dims.length; d++) {
            grid *= (dims[d] + chunkDims[d] - 1) / chunkDims[d];
        }
        if (grid > Integer.MAX_VALUE - 8) {
            throw Hdf5.error(ds, "too many chunks: " + grid);
        }
        long[] addr = new long[(int) grid];
        int[] stored = new int[(int) grid];
        int[] mask = new int[(int) grid];
        Arrays.fill(addr, UNDEFINED);
        Collection<Chunk> lookup = chunks(ds, dims.length);
        if (lookup == null) {
            jhdf = true;
        } else {
            for (Chunk c : lookup) {
                long[] off = c.getChunkOffset();
                long linear = 0;
                for (int d = 0; d < dims.length; d++) {
                    long g = off[d] / chunkDims[d];
                    long gridD = (dims[d] + chunkDims[d] - 1) / chunkDims[d];
                    if (off[d] % chunkDims[d] != 0 || g < 0 || g >= gridD) {
                        throw Hdf5.error(
                                ds,
                                "chunk at offset " + Arrays.toString(off) + " outside the dataset "
                                        + Arrays.toString(dims));
                    }
                    linear = linear * gridD + g;
                }
                if (c.getAddress() < 0 || c.getSize() < 0 || c.getAddress() + c.getSize() > fileSize) {
                    throw Hdf5.error(
                            ds,
                            "file truncated: chunk at offset " + Arrays.toString(off) + " lies at "
                                    + c.getAddress() + ".." + (c.getAddress() + c.getSize()) + ", the file has "
                                    + fileSize
                                    + " bytes");
                }
                addr[(int) linear] = c.getAddress();
                stored[(int) linear] = c.getSize();
                long[] m = c.getFilterMask().toLongArray();
                mask[(int) linear] = m.length == 0 ? 0 : (int) m[0];
            }
        }
        return new StoredArray(
                file,
                path,
                dtype,
                size,
                order,
                dims,
                Layout.CHUNKED,
                0,
                null,
                chunkDims,
                addr,
                stored,
                mask,
                ids,
                jhdf,
                null);
    }

    /**
     * Whether this jhdf's private chunk index members were reached: without them every chunk is read through jhdf, a
     * slow path (StoredArrayReflectionTest fails when a jhdf upgrade takes them away; known to work with jhdf 0.13.0).
     */
    public static boolean readsChunkIndexItself() {
        return LAYOUT_V3 != null && CHUNK_LOOKUP != null;
    }

    /** Whether this dataset's chunks are read through jhdf (filters scflux does not decode, or no chunk index). */
    public boolean readsChunksThroughJhdf() {
        return jhdfChunks;
    }

    /** A jhdf member made accessible, or null when this jhdf lacks it: the chunks are then read another way. */
    private static <T extends AccessibleObject> @Nullable T accessible(Callable<T> member) {
        try {
            T m = member.call();
            m.setAccessible(true);
            return m;
        } catch (Exception e) {
            return null;
        }
    }

    /**
     * The chunks of {@code ds} (of {@code rank} dimensions), or null when jhdf cannot list them. A layout-3 dataset's
     * B-tree is read straight into a list that the caller drops: jhdf's own lookup would be a map cached in the
     * dataset, tens of thousands of small objects (11,464 chunks for a million cells' X) kept alive, and copied at
     * every young collection, for as long as any part of the file's jhdf objects had reached the old generation.
     */
    @SuppressWarnings("unchecked")
    private static @Nullable Collection<Chunk> chunks(ChunkedDataset ds, int rank) {
        try {
            if (LAYOUT_V3 != null && ds instanceof ChunkedDatasetV3) {
                long btree = ((ChunkedDataLayoutMessage) LAYOUT_V3.get(ds)).getBTreeAddress();
                return btree == UNDEFINED
                        ? List.of()
                        : BTreeV1.createDataBTree(ds.getHdfFile().getHdfBackingStorage(), btree, rank)
                                .getChunks();
            }
            if (CHUNK_LOOKUP == null || !(ds instanceof ChunkedDatasetBase)) {
                return null;
            }
            return ((Map<?, Chunk>) CHUNK_LOOKUP.invoke(ds)).values();
        } catch (java.lang.reflect.InvocationTargetException e) {
            Throwable cause = Objects.requireNonNullElse(e.getCause(), e);
            throw Hdf5.error(ds, "unreadable chunk index: " + cause.getMessage(), cause);
        } catch (ReflectiveOperationException e) {
            return null;
        } catch (HdfException e) {
            throw Hdf5.error(ds, "unreadable chunk index: " + e.getMessage(), e);
        }
    }

    private static ByteOrder byteOrder(DataType type) {
        if (type instanceof EnumDataType e) {
            type = e.getBaseType();
        }
        if (type instanceof OrderedDataType o) {
            return o.getByteOrder();
        }
        return ByteOrder.LITTLE_ENDIAN;
    }

    private static long product(long[] dims) {
        long n = 1;
        for (long d : dims) {
            n = Math.multiplyExact(n, d);
        }
        return n;
    }

    String path() {
        return path;
    }

    public DType dtype() {
        return dtype;
    }

    public int elementSize() {
        return elementSize;
    }

    public long[] dims() {
        return dims.clone();
    }

    /** Length of the first axis. */
    long length() {
        return dims.length == 0 ? 1 : dims[0];
    }

    public boolean isChunked() {
        return layout == Layout.CHUNKED;
    }

    public int @Nullable [] chunkDims() {
        return chunkDims == null ? null : chunkDims.clone();
    }

    /** The filter pipeline as {@code scflux info} names it. */
    public String compression() {
        return ChunkCodec.describe(filterIds);
    }

    public ScfluxFormatException error(String problem) {
        return new ScfluxFormatException(file, path, problem);
    }

    /**
     * Reads elements {@code [from, from + count)} in row-major order and hands them to {@code decode} in a buffer of
     * {@code count} elements (set to the dataset's byte order, positioned at 0) lent by {@link ReadBuffers} for that
     * call only. Contiguous data and unfiltered chunks are read in place; filtered chunks are decoded whole and kept by
     * the storage for the next call.
     */
    public void read(Storage s, long from, int count, Consumer<ByteBuffer> decode) {
        long total = product(dims);
        if (from < 0 || count < 0 || from + count > total) {
            throw error("elements " + from + ".." + (from + count) + " requested of " + total);
        }
        int bytes = count * elementSize;
        ReadBuffers.lend(bytes, dst -> {
            dst.order(order);
            if (count > 0) {
                switch (layout) {
                    case COMPACT -> dst.put(compact, (int) (from * elementSize), bytes);
                    case CONTIGUOUS -> {
                        if (address != UNDEFINED) {
                            s.read(address + from * elementSize, dst, path);
                        } else {
                            while (dst.hasRemaining()) {
                                dst.put((byte) 0);
                            }
                        }
                    }
                    default -> readChunked(s, from, count, dst);
                }
            }
            decode.accept(dst.position(0).limit(bytes));
        });
    }

    private void readChunked(Storage s, long from, int count, ByteBuffer dst) {
        if (dims.length != 1) {
            throw error("row-major ranges of chunked " + dims.length + "-D data are read chunk by chunk");
        }
        long end = from + count;
        int cd = chunkShape()[0];
        for (long c = from / cd; c * cd < end; c++) {
            long chunkStart = c * cd;
            long a = Math.max(from, chunkStart);
            long b = Math.min(end, chunkStart + cd);
            int len = (int) (b - a) * elementSize;
            int at = (int) (a - from) * elementSize;
            if (!jhdfChunks && codec.isEmpty() && sums == null && addresses()[(int) c] != UNDEFINED) {
                ByteBuffer slice = dst.duplicate().position(at).limit(at + len);
                s.read(addresses()[(int) c] + (a - chunkStart) * elementSize, slice, path);
                s.stats().addChunk();
            } else if (sums != null && a == chunkStart && len == storedBytes()[(int) c]) {
                // whole checksummed chunks, contiguous: read at once in place and checked there, neither copied nor
                // kept (only the chunks at the ends of a range go through the decoded chunks that readers share)
                long last = c;
                while (last + 1 < grid()[0] && (last + 2) * cd <= end) {
                    last++;
                }
                int whole = (int) ((Math.min(end, (last + 1) * cd) - a) * elementSize);
                ByteBuffer slice = dst.duplicate().position(at).limit(at + whole);
                s.read(addresses()[(int) c], slice, path);
                for (long k = c; k <= last; k++) {
                    int off = at + (int) ((k - c) * cd * elementSize);
                    sums.verify(
                            path,
                            k,
                            addresses()[(int) k],
                            dst.duplicate().position(off).limit(off + storedBytes()[(int) k]));
                    s.stats().addChunk();
                }
                c = last;
            } else {
                ByteBuffer chunk = chunk(s, c, c + 1 < grid()[0] ? c + 1 : -1);
                dst.put(at, chunk, (int) (a - chunkStart) * elementSize, len);
            }
        }
    }

    /**
     * Every element's stored bytes in row-major order, chunks decoded by scflux (whatever the rank): what jhdf's
     * {@code DataType.fillData} turns into Java values, strings included.
     */
    ByteBuffer readAll(Storage s) {
        long total = product(dims);
        ByteBuffer out =
                ByteBuffer.allocate(Math.toIntExact(total * elementSize)).order(order);
        if (layout != Layout.CHUNKED || dims.length <= 1) {
            read(s, 0, (int) total, out::put);
            return out.flip();
        }
        int rank = dims.length;
        long[] chunkStride = new long[rank];
        long[] dimStride = new long[rank];
        chunkStride[rank - 1] = 1;
        dimStride[rank - 1] = 1;
        for (int d = rank - 2; d >= 0; d--) {
            chunkStride[d] = chunkStride[d + 1] * chunkShape()[d + 1];
            dimStride[d] = dimStride[d + 1] * dims[d + 1];
        }
        long chunks = 1;
        for (long g : grid()) {
            chunks *= g;
        }
        long[] start = new long[rank];
        long[] extent = new long[rank];
        int[] at = new int[rank - 1];
        for (long linear = 0; linear < chunks; linear++) {
            long rest = linear;
            for (int d = rank - 1; d >= 0; d--) {
                start[d] = (rest % grid()[d]) * chunkShape()[d];
                extent[d] = Math.min(chunkShape()[d], dims[d] - start[d]);
                rest /= grid()[d];
            }
            ByteBuffer chunk = chunk(s, linear);
            java.util.Arrays.fill(at, 0);
            while (true) {
                long src = 0;
                long dst = start[rank - 1];
                for (int d = 0; d < rank - 1; d++) {
                    src += at[d] * chunkStride[d];
                    dst += (start[d] + at[d]) * dimStride[d];
                }
                out.put((int) (dst * elementSize), chunk, (int) (src * elementSize), (int)
                        (extent[rank - 1] * elementSize));
                int d = rank - 2;
                while (d >= 0 && ++at[d] == extent[d]) {
                    at[d--] = 0;
                }
                if (d < 0) {
                    break;
                }
            }
        }
        return out.clear();
    }

    /** Where chunk {@code linear} is stored: its first byte in the file, or -1 when it was never written. */
    public long chunkAddress(long linear) {
        return addresses()[Math.toIntExact(linear)];
    }

    /** How many bytes chunk {@code linear} takes in the file, filtered. */
    public int chunkStoredBytes(long linear) {
        return storedBytes()[Math.toIntExact(linear)];
    }

    /** Number of chunks along each axis (chunked layout only). */
    public long[] chunkGrid() {
        return grid().clone();
    }

    /**
     * Chunk {@code linear} (row-major over the chunk grid), decoded: {@code chunkElements} elements in the dataset's
     * byte order, the full chunk shape even at the edges. A chunk never written reads as zeros (the fill value).
     */
    public ByteBuffer chunk(Storage s, long linear) {
        return chunk(s, linear, -1);
    }

    /** As {@link #chunk(Storage, long)}; while another thread decodes it, this one decodes chunk {@code next}. */
    private ByteBuffer chunk(Storage s, long linear, long next) {
        return s.decodedChunk(
                this,
                linear,
                () -> decode(s, linear),
                next < 0 ? null : () -> s.prefetchChunk(this, next, () -> decode(s, next)));
    }

    private ByteBuffer decode(Storage s, long linear) {
        int bytes = Math.toIntExact(chunkElements * elementSize);
        ByteBuffer out;
        if (jhdfChunks) {
            out = ByteBuffer.wrap(jhdfChunk(s, linear)).order(order);
            s.stats().addBytes(bytes);
        } else if (addresses()[(int) linear] == UNDEFINED) {
            out = ByteBuffer.allocate(bytes).order(order);
        } else if (sums != null) {
            // the chunk's bytes, the last one's short of a full chunk, checked before anything reads them
            out = ByteBuffer.allocate(bytes).order(order);
            ByteBuffer stored = out.duplicate().limit(storedBytes()[(int) linear]);
            s.read(addresses()[(int) linear], stored, path);
            sums.verify(path, linear, addresses()[(int) linear], stored.flip());
        } else {
            ByteBuffer stored = ByteBuffer.allocate(storedBytes()[(int) linear]);
            s.read(addresses()[(int) linear], stored, path);
            byte[] raw = stored.array();
            if (codec.isEmpty()) {
                if (raw.length < bytes) {
                    throw error("chunk " + linear + " stores " + raw.length + " bytes, expected " + bytes);
                }
                out = ByteBuffer.wrap(raw).order(order);
            } else {
                try {
                    out = ByteBuffer.wrap(codec.decode(raw, filterMasks()[(int) linear], bytes))
                            .order(order);
                } catch (IllegalStateException e) {
                    throw new ScfluxFormatException(
                            file,
                            path,
                            "chunk " + linear + " at byte " + addresses()[(int) linear] + ": " + e.getMessage(),
                            e);
                }
            }
        }
        s.stats().addChunk();
        return out;
    }

    private byte[] jhdfChunk(Storage s, long linear) {
        int[] offset = new int[dims.length];
        long rest = linear;
        for (int d = dims.length - 1; d >= 0; d--) {
            offset[d] = (int) (rest % grid()[d]) * chunkShape()[d];
            rest /= grid()[d];
        }
        try {
            return ((ChunkedDataset) s.jhdfDataset(path)).getDecompressedChunk(offset);
        } catch (RuntimeException e) {
            throw new ScfluxFormatException(
                    file, path, "chunk at " + Arrays.toString(offset) + " cannot be decoded: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "StoredArray[" + file + ":" + path + " " + dtype + " " + Arrays.toString(dims) + " " + layout + "]";
    }
}

/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io;

import static org.bytedeco.hdf5.global.hdf5.*;

import io.scflux.core.DType;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.PackedStrings;
import io.scflux.core.anndata.RecordArray;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Executors;
import java.util.function.IntToDoubleFunction;
import java.util.function.LongSupplier;
import java.util.function.LongToIntFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.bytedeco.hdf5.H5E_error2_t;
import org.bytedeco.hdf5.H5E_walk2_t;
import org.bytedeco.hdf5.global.hdf5;
import org.bytedeco.javacpp.BytePointer;
import org.bytedeco.javacpp.LongPointer;
import org.bytedeco.javacpp.Pointer;
import org.jspecify.annotations.Nullable;
import reactor.core.scheduler.Scheduler;
import reactor.core.scheduler.Schedulers;

/**
 * One HDF5 file being written through the reference C library (bytedeco's JavaCPP binding): groups, attributes,
 * fixed and extendable datasets, each known by its path, every return code checked. The bundled library is not
 * thread-safe, so every call into it runs on {@link #THREAD}; Java arrays are copied to native memory through one
 * reused staging buffer per file, in slices, so that native memory stays bounded whatever the dataset size.
 */
final class NativeHdf5 implements AutoCloseable {

    /**
     * The one thread that calls the HDF5 library, FIFO. A plain daemon thread, not one of Reactor's non-blocking
     * ones: the library blocks on file I/O.
     */
    static final Scheduler THREAD = Schedulers.fromExecutorService(
            Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "scflux-hdf5");
                t.setDaemon(true);
                return t;
            }),
            "scflux-hdf5");

    /**
     * Most elements staged and written by one {@code H5Dwrite}: bounds the native staging buffer (and the string
     * table of a text column) by a constant rather than by the number of cells.
     */
    static final int SLICE_ELEMENTS = 1 << 16;

    private static final long[] TYPES = new long[DType.values().length];
    private static final long LINK_CREATION;
    private static final long ATTRIBUTE_CREATION;
    /** The outermost and innermost descriptions of the library's error stack, filled by {@link #check}. */
    private static final String[] ERROR_ENDS = new String[2];

    private static final H5E_walk2_t COLLECT_ERRORS = new H5E_walk2_t() {
        @Override
        public int call(int n, H5E_error2_t error, Pointer clientData) {
            String desc = error.desc() == null ? "" : error.desc().getString();
            if (n == 0) {
                ERROR_ENDS[0] = desc;
            }
            ERROR_ENDS[1] = desc;
            return 0;
        }
    };

    static {
        init(H5open(), "H5open");
        // Errors are reported through return codes and the error stack, not printed on stderr.
        init(H5Eset_auto2(H5E_DEFAULT, null, null), "H5Eset_auto2");
        TYPES[DType.INT8.ordinal()] = H5T_STD_I8LE_g();
        TYPES[DType.INT16.ordinal()] = H5T_STD_I16LE_g();
        TYPES[DType.INT32.ordinal()] = H5T_STD_I32LE_g();
        TYPES[DType.INT64.ordinal()] = H5T_STD_I64LE_g();
        TYPES[DType.UINT8.ordinal()] = H5T_STD_U8LE_g();
        TYPES[DType.UINT16.ordinal()] = H5T_STD_U16LE_g();
        TYPES[DType.UINT32.ordinal()] = H5T_STD_U32LE_g();
        TYPES[DType.UINT64.ordinal()] = H5T_STD_U64LE_g();
        TYPES[DType.FLOAT32.ordinal()] = H5T_IEEE_F32LE_g();
        TYPES[DType.FLOAT64.ordinal()] = H5T_IEEE_F64LE_g();
        // numpy's bool as h5py stores it: an int8 enum {FALSE: 0, TRUE: 1}.
        long bool = init(H5Tenum_create(H5T_STD_I8LE_g()), "H5Tenum_create");
        try (BytePointer v = new BytePointer(1)) {
            v.put(0, (byte) 0);
            init(H5Tenum_insert(bool, "FALSE", v), "H5Tenum_insert");
            v.put(0, (byte) 1);
            init(H5Tenum_insert(bool, "TRUE", v), "H5Tenum_insert");
        }
        TYPES[DType.BOOL.ordinal()] = bool;
        // h5py's str: variable-length, UTF-8, NUL-terminated.
        long str = init(H5Tcopy(H5T_C_S1_g()), "H5Tcopy");
        init(H5Tset_size(str, H5T_VARIABLE), "H5Tset_size");
        init(H5Tset_cset(str, H5T_CSET_UTF8), "H5Tset_cset");
        init(H5Tset_strpad(str, H5T_STR_NULLTERM), "H5Tset_strpad");
        TYPES[DType.STRING.ordinal()] = str;
        // h5py's link and attribute names: UTF-8.
        LINK_CREATION = init(H5Pcreate(H5P_CLS_LINK_CREATE_ID_g()), "H5Pcreate");
        init(H5Pset_char_encoding(LINK_CREATION, H5T_CSET_UTF8), "H5Pset_char_encoding");
        ATTRIBUTE_CREATION = init(H5Pcreate(H5P_CLS_ATTRIBUTE_CREATE_ID_g()), "H5Pcreate");
        init(H5Pset_char_encoding(ATTRIBUTE_CREATION, H5T_CSET_UTF8), "H5Pset_char_encoding");
    }

    private static long init(long ret, String call) {
        return check(ret, "libhdf5", "-", call);
    }

    private final String name;
    private final long id;
    private final int gzipLevel;
    private final DiskSpace space;
    private BytePointer staging = new BytePointer(1 << 16);
    private ByteBuffer stagingView = staging.asByteBuffer();
    private BytePointer strings = new BytePointer(1 << 16);
    private boolean closed;

    private NativeHdf5(String name, long id, int gzipLevel, DiskSpace space) {
        this.name = name;
        this.id = id;
        this.gzipLevel = gzipLevel;
        this.space = space;
    }

    /**
     * Creates {@code file}, which must not exist. {@code name} is how errors name it; {@code gzipLevel} in [0, 9]
     * compresses every non-scalar dataset, -1 none. Writes are refused, as a full disk, before the file system's free
     * space runs short (see {@link DiskSpace}).
     */
    static NativeHdf5 create(Path file, String name, int gzipLevel) {
        return create(file, name, gzipLevel, DiskSpace.of(file));
    }

    /** As {@link #create(Path, String, int)}, checking free space with {@code space}. */
    static NativeHdf5 create(Path file, String name, int gzipLevel, DiskSpace space) {
        try (Handle fapl = new Handle(
                        check(H5Pcreate(H5P_CLS_FILE_ACCESS_ID_g()), name, "/", "H5Pcreate"),
                        name,
                        "/",
                        hdf5::H5Pclose);
                BytePointer path = utf8(file.toString())) {
            // STRONG: closing the file closes whatever is still open in it (an aborted write).
            check(H5Pset_fclose_degree(fapl.id, H5F_CLOSE_STRONG), name, "/", "H5Pset_fclose_degree");
            // Nobody else knows the temporary name; locks only fail on file systems without them.
            check(H5Pset_file_locking(fapl.id, false, true), name, "/", "H5Pset_file_locking");
            long id = check(H5Fcreate(path, H5F_ACC_EXCL, H5P_DEFAULT, fapl.id), name, "/", "H5Fcreate " + file);
            return new NativeHdf5(name, id, gzipLevel, space);
        }
    }

    /** What {@code bytes} handed to the library take in the file: as many, or fewer once deflated. */
    private long stored(long bytes) {
        return gzipLevel < 0 ? bytes : (long) Math.ceil(bytes * space.ratio());
    }

    /** The root group. */
    Group root() {
        return openGroup("/");
    }

    /** An existing group by absolute path. */
    Group openGroup(String path) {
        try (BytePointer p = utf8(path)) {
            return new Group(check(H5Gopen2(id, p, H5P_DEFAULT), path, "H5Gopen2"), path);
        }
    }

    /**
     * Closes the file and anything still open in it, each object once: after a failed write (a full disk) closing an
     * object fails as its cached data cannot be flushed, and the library's own strong close stops at the first such
     * object, keeping the file and its descriptor open (and crashing when it tries again at exit). So every object
     * is closed here first, whatever fails (a failed close still releases the handle), then the file, whose
     * descriptor the library releases even when its last flush fails. The first failure is thrown, the others are
     * added to it.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        try {
            int kinds = H5F_OBJ_DATASET | H5F_OBJ_GROUP | H5F_OBJ_DATATYPE | H5F_OBJ_ATTR | H5F_OBJ_LOCAL;
            long open = H5Fget_obj_count(id, kinds);
            long[] ids = new long[(int) Math.max(0, open)];
            if (open > 0) {
                H5Fget_obj_ids(id, kinds, open, ids);
            }
            for (long object : ids) {
                failure = closeObject(object, failure);
            }
            try {
                check(H5Fclose(id), name, "/", "H5Fclose");
            } catch (RuntimeException e) {
                failure = first(failure, e);
            }
        } finally {
            staging.close();
            strings.close();
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** Closes the object {@code object} left open in the file; returns {@code failure} with what went wrong added. */
    private @Nullable RuntimeException closeObject(long object, @Nullable RuntimeException failure) {
        int ret = switch (H5Iget_type(object)) {
            case H5I_DATASET -> H5Dclose(object);
            case H5I_GROUP -> H5Gclose(object);
            case H5I_DATATYPE -> H5Tclose(object);
            case H5I_ATTR -> H5Aclose(object);
            default -> 0;
        };
        try {
            check(ret, name, "/", "close of an object left open");
            return failure;
        } catch (RuntimeException e) {
            return first(failure, e);
        }
    }

    private static RuntimeException first(@Nullable RuntimeException failure, RuntimeException e) {
        if (failure == null) {
            return e;
        }
        failure.addSuppressed(e);
        return failure;
    }

    /** Closes {@code c} (if any) after {@code cause} went wrong, adding a failure to close to its suppressed. */
    static void closeAfter(@Nullable AutoCloseable c, Throwable cause) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (Exception e) {
            cause.addSuppressed(e);
        }
    }

    /** The path of child {@code name} of {@code parent}; an error for names HDF5 would read as paths. */
    static String child(String parent, String name) {
        if (name.isEmpty() || name.indexOf('/') >= 0 || name.equals(".")) {
            throw new IllegalArgumentException(
                    parent + ": '" + name + "' cannot name an HDF5 element (empty, '.' or containing '/')");
        }
        return parent.endsWith("/") ? parent + name : parent + "/" + name;
    }

    private long check(long ret, String path, String call) {
        if (closed) {
            throw new IllegalStateException(name + ": " + path + ": file already closed");
        }
        return check(ret, name, path, call);
    }

    private static long check(long ret, String file, String path, String call) {
        if (ret < 0) {
            ERROR_ENDS[0] = null;
            ERROR_ENDS[1] = null;
            H5Ewalk2(H5E_DEFAULT, H5E_WALK_DOWNWARD, COLLECT_ERRORS, null);
            H5Eclear2(H5E_DEFAULT);
            String full = outOfSpace(ERROR_ENDS[1]);
            if (full != null) {
                throw IoFailure.of(file + ": " + path + ": " + full);
            }
            String why = ERROR_ENDS[0] == null
                    ? ""
                    : ERROR_ENDS[0].equals(ERROR_ENDS[1])
                            ? ": " + ERROR_ENDS[0]
                            : ": " + ERROR_ENDS[0] + ": " + ERROR_ENDS[1];
            throw IoFailure.of((file + ": " + path + ": " + call + " failed" + why).replaceAll("\\s*\\R\\s*", " "));
        }
        return ret;
    }

    /**
     * What to tell the user when the library's innermost error is a write the system refused for want of space
     * (errno 28, ENOSPC) or past the file size limit (errno 27, EFBIG), naming the folder of the file written; null
     * for any other error.
     */
    static @Nullable String outOfSpace(String innermost) {
        if (innermost == null) {
            return null;
        }
        Matcher errno = Pattern.compile("errno = (\\d+)").matcher(innermost);
        if (!errno.find()) {
            return null;
        }
        Matcher name = Pattern.compile("filename = '([^']*)'").matcher(innermost);
        Path folder = name.find() ? Path.of(name.group(1)).toAbsolutePath().getParent() : null;
        String where = folder == null ? "" : " in " + folder;
        return switch (errno.group(1)) {
            case "28" -> "the disk is full: no space left on device" + where;
            case "27" -> "the file grew past the size this system allows (the file size limit, ulimit -f)" + where;
            default -> null;
        };
    }

    /** A property list, dataspace or attribute of the library, closed (and checked) by try-with-resources. */
    private record Handle(long id, String file, String path, LongToIntFunction closer) implements AutoCloseable {
        @Override
        public void close() {
            check(closer.applyAsInt(id), file, path, "close");
        }
    }

    private Handle handle(long ret, String path, String call, LongToIntFunction closer) {
        return new Handle(check(ret, path, call), name, path, closer);
    }

    private static BytePointer utf8(String s) {
        return new BytePointer(s, StandardCharsets.UTF_8);
    }

    private static long typeId(DType t) {
        return TYPES[t.ordinal()];
    }

    /** A dataspace of these dimensions (scalar when empty), unlimited along the first axis when extendable. */
    private Handle space(String path, long[] dims, boolean extendable) {
        if (dims.length == 0) {
            return handle(H5Screate(H5S_SCALAR), path, "H5Screate", hdf5::H5Sclose);
        }
        long[] max = dims.clone();
        if (extendable) {
            max[0] = H5S_UNLIMITED;
        }
        return handle(H5Screate_simple(dims.length, dims, max), path, "H5Screate_simple", hdf5::H5Sclose);
    }

    private Handle propertyList(long cls, String path) {
        return handle(H5Pcreate(cls), path, "H5Pcreate", hdf5::H5Pclose);
    }

    // ---- staging: Java arrays to native memory, one slice at a time ----

    private ByteBuffer reserve(long bytes) {
        if (bytes > staging.capacity()) {
            long size = Math.max(bytes, 2 * staging.capacity());
            staging.close();
            staging = new BytePointer(size);
            stagingView = staging.asByteBuffer();
        }
        stagingView.clear();
        return stagingView;
    }

    /** Elements {@code [from, from + n)} of {@code data} (whose elements are {@code type}) in native layout. */
    private Pointer stage(Object data, DType type, int from, int n) {
        if (type == DType.STRING) {
            return data instanceof PackedStrings p ? stagePacked(p, from, n) : stageStrings((String[]) data, from, n);
        }
        ByteBuffer b = reserve((long) n * type.size());
        if (data instanceof boolean[] v) {
            for (int i = 0; i < n; i++) {
                b.put(i, v[from + i] ? (byte) 1 : (byte) 0);
            }
        } else if (data instanceof byte[] v) {
            b.put(v, from, n);
        } else if (data instanceof short[] v) {
            b.asShortBuffer().put(v, from, n);
        } else if (data instanceof int[] v) {
            b.asIntBuffer().put(v, from, n);
        } else if (data instanceof long[] v) {
            b.asLongBuffer().put(v, from, n);
        } else if (data instanceof float[] v) {
            b.asFloatBuffer().put(v, from, n);
        } else {
            b.asDoubleBuffer().put((double[]) data, from, n);
        }
        return staging;
    }

    /** {@code local[from + i] + add} as int64, for row pointers. */
    private Pointer stageOffsets(int[] local, int from, int n, long add) {
        ByteBuffer b = reserve(8L * n);
        for (int i = 0; i < n; i++) {
            b.putLong(8 * i, local[from + i] + add);
        }
        return staging;
    }

    /** A table of {@code char*} into UTF-8, NUL-terminated copies of the strings (null stored as ""). */
    private Pointer stageStrings(String[] data, int from, int n) {
        ByteBuffer table = reserve(8L * n);
        long used = 0;
        for (int i = 0; i < n; i++) {
            String s = data[from + i];
            byte[] bytes = s == null ? new byte[0] : s.getBytes(StandardCharsets.UTF_8);
            used = stageString(table, 8 * i, used, bytes, 0, bytes.length);
        }
        return pointTable(table, n);
    }

    /** As {@link #stageStrings} for packed strings, copied from their bytes without making a String. */
    private Pointer stagePacked(PackedStrings data, int from, int n) {
        ByteBuffer table = reserve(8L * n);
        long used = 0;
        byte[] utf8 = data.utf8();
        for (int i = 0; i < n; i++) {
            int start = data.start(from + i);
            used = stageString(table, 8 * i, used, utf8, start, data.end(from + i) - start);
        }
        return pointTable(table, n);
    }

    /**
     * Appends a string's bytes and a NUL at {@code used} of the string buffer, its offset put at byte {@code at} of
     * {@code table} (made an address by {@link #pointAt}); returns the new end.
     */
    private long stageString(ByteBuffer table, int at, long used, byte[] bytes, int start, int length) {
        for (int k = start; k < start + length; k++) {
            if (bytes[k] == 0) {
                throw new IllegalArgumentException("an HDF5 string cannot hold a NUL character: '"
                        + new String(bytes, start, length, StandardCharsets.UTF_8).replace("\0", "\\0") + "'");
            }
        }
        if (used + length + 1 > strings.capacity()) {
            BytePointer grown = new BytePointer(Math.max(used + length + 1, 2 * strings.capacity()));
            Pointer.memcpy(grown, strings, used);
            strings.close();
            strings = grown;
        }
        strings.position(used).put(bytes, start, length).put(length, (byte) 0);
        strings.position(0);
        table.putLong(at, used);
        return used + length + 1;
    }

    /** Turns the table's offsets into the strings' addresses, once the string buffer stopped moving. */
    private Pointer pointTable(ByteBuffer table, int n) {
        for (int i = 0; i < n; i++) {
            pointAt(table, 8 * i);
        }
        return staging;
    }

    /** Turns the string offset at byte {@code at} of {@code table} into its address in the string buffer. */
    private void pointAt(ByteBuffer table, int at) {
        table.putLong(at, strings.address() + table.getLong(at));
    }

    /**
     * Records {@code [from, from + n)} of {@code fields} laid out as a compound type of {@code width} bytes whose
     * field {@code f} is at byte {@code at[f]}: numbers as they are, bools as one byte, strings as addresses of
     * UTF-8, NUL-terminated copies (null stored as "").
     */
    private Pointer stageRecords(List<DenseArray> fields, long[] at, long width, int from, int n) {
        ByteBuffer b = reserve(n * width);
        long used = 0;
        for (int f = 0; f < at.length; f++) {
            Object data = fields.get(f).data();
            for (int i = 0; i < n; i++) {
                int pos = (int) (i * width + at[f]);
                int k = from + i;
                if (data instanceof PackedStrings p) {
                    int start = p.start(k);
                    used = stageString(b, pos, used, p.utf8(), start, p.end(k) - start);
                } else if (data instanceof String[] v) {
                    byte[] bytes = v[k] == null ? new byte[0] : v[k].getBytes(StandardCharsets.UTF_8);
                    used = stageString(b, pos, used, bytes, 0, bytes.length);
                } else if (data instanceof boolean[] v) {
                    b.put(pos, v[k] ? (byte) 1 : (byte) 0);
                } else if (data instanceof byte[] v) {
                    b.put(pos, v[k]);
                } else if (data instanceof short[] v) {
                    b.putShort(pos, v[k]);
                } else if (data instanceof int[] v) {
                    b.putInt(pos, v[k]);
                } else if (data instanceof long[] v) {
                    b.putLong(pos, v[k]);
                } else if (data instanceof float[] v) {
                    b.putFloat(pos, v[k]);
                } else {
                    b.putDouble(pos, ((double[]) data)[k]);
                }
            }
        }
        for (int f = 0; f < at.length; f++) {
            if (fields.get(f).dtype() == DType.STRING) {
                for (int i = 0; i < n; i++) {
                    pointAt(b, (int) (i * width + at[f]));
                }
            }
        }
        return staging;
    }

    /** A group or dataset of the file: its id, its path, and the attributes anndata puts on both. */
    abstract class Node implements AutoCloseable {
        final long id;
        final String path;
        private boolean open = true;

        Node(long id, String path) {
            this.id = id;
            this.path = path;
        }

        /** Writes an attribute: a scalar ({@code shape []}) or an array of any type, strings as h5py's str. */
        void attr(String name, DenseArray value) {
            long t = typeId(value.dtype());
            try (Handle space = space(path, value.shape(), false);
                    BytePointer n = utf8(name);
                    Handle a = handle(
                            H5Acreate2(id, n, t, space.id, ATTRIBUTE_CREATION, H5P_DEFAULT),
                            path,
                            "H5Acreate2 '" + name + "'",
                            hdf5::H5Aclose)) {
                check(
                        H5Awrite(a.id, t, stage(value.data(), value.dtype(), 0, value.size())),
                        path,
                        "H5Awrite '" + name + "'");
            }
        }

        void attr(String name, String value) {
            attr(name, DenseArray.scalar(value));
        }

        @Override
        public void close() {
            if (open && !closed) {
                open = false;
                check(closeId(id), path, "close");
            }
        }

        abstract int closeId(long id);
    }

    /** An HDF5 group. */
    final class Group extends Node {

        private Group(long id, String path) {
            super(id, path);
        }

        /** Creates the child group {@code name}. */
        Group group(String name) {
            String p = child(path, name);
            try (BytePointer n = utf8(name)) {
                return new Group(check(H5Gcreate2(id, n, LINK_CREATION, H5P_DEFAULT, H5P_DEFAULT), p, "H5Gcreate2"), p);
            }
        }

        /**
         * Creates the dataset {@code name} of {@code fileType} and the shape of {@code value}, and writes the values
         * (converted by the library when the types differ). Contiguous as h5py writes by default, or chunked along
         * the first axis and deflated when the file compresses; scalars and empty arrays are never chunked.
         */
        Dataset dataset(String name, DType fileType, DenseArray value) {
            return dataset(
                    name,
                    fileType,
                    value.shape(),
                    value.dtype(),
                    (offset, n) -> stage(value.data(), value.dtype(), (int) offset, n));
        }

        /**
         * As {@link #dataset(String, DType, DenseArray)} for a 1-D float32 or float64 dataset of {@code n} values,
         * {@code value(i)} the i-th, staged a slice at a time: no array of them all is ever made (a computed column).
         */
        Dataset dataset(String name, DType fileType, int n, IntToDoubleFunction value) {
            if (fileType != DType.FLOAT32 && fileType != DType.FLOAT64) {
                throw new IllegalArgumentException("computed values are float32 or float64, not " + fileType);
            }
            return dataset(name, fileType, new long[] {n}, fileType, (offset, count) -> {
                ByteBuffer b = reserve((long) count * fileType.size());
                int from = (int) offset;
                if (fileType == DType.FLOAT32) {
                    for (int i = 0; i < count; i++) {
                        b.putFloat(4 * i, (float) value.applyAsDouble(from + i));
                    }
                } else {
                    for (int i = 0; i < count; i++) {
                        b.putDouble(8 * i, value.applyAsDouble(from + i));
                    }
                }
                return staging;
            });
        }

        /**
         * A 1-D compound dataset, a numpy structured array as h5py stores it (anndata's {@code rec-array}): one member
         * per field, packed in field order as numpy lays them out, strings as h5py's variable-length str.
         */
        Dataset records(String name, RecordArray records) {
            String p = child(path, name);
            List<DenseArray> fields = List.copyOf(records.fields().values());
            if (fields.isEmpty()) {
                throw new IllegalArgumentException(p + ": a structured array needs at least one field");
            }
            long[] at = new long[fields.size()];
            long width = 0;
            for (int f = 0; f < at.length; f++) {
                at[f] = width;
                width += H5Tget_size(typeId(fields.get(f).dtype()));
            }
            long w = width;
            try (Handle type = handle(H5Tcreate(H5T_COMPOUND, width), p, "H5Tcreate", hdf5::H5Tclose)) {
                int f = 0;
                for (String field : records.fields().keySet()) {
                    try (BytePointer n = utf8(field)) {
                        check(
                                H5Tinsert(
                                        type.id, n, at[f], typeId(fields.get(f).dtype())),
                                p,
                                "H5Tinsert '" + field + "'");
                    }
                    f++;
                }
                return dataset(
                        name,
                        null,
                        type.id,
                        new long[] {records.size()},
                        type.id,
                        (offset, count) -> stageRecords(fields, at, w, (int) offset, count));
            }
        }

        /**
         * A 1-D dataset of fixed-length byte strings (numpy's {@code |S}), each NUL-padded to the longest one's UTF-8
         * bytes: the type Cell Ranger stores barcodes and feature names in.
         */
        Dataset fixedStrings(String name, PackedStrings values) {
            int n = values.size();
            int width = 1;
            for (int i = 0; i < n; i++) {
                width = Math.max(width, values.end(i) - values.start(i));
            }
            int w = width;
            try (Handle type = handle(H5Tcopy(H5T_C_S1_g()), path, "H5Tcopy", hdf5::H5Tclose)) {
                check(H5Tset_size(type.id, w), path, "H5Tset_size");
                check(H5Tset_strpad(type.id, H5T_STR_NULLPAD), path, "H5Tset_strpad");
                byte[] utf8 = values.utf8();
                return dataset(name, DType.STRING, type.id, new long[] {n}, type.id, (offset, count) -> {
                    ByteBuffer b = reserve((long) count * w);
                    for (int i = 0; i < count; i++) {
                        int at = i * w;
                        int start = values.start((int) offset + i);
                        int len = values.end((int) offset + i) - start;
                        b.put(at, utf8, start, len);
                        for (int j = len; j < w; j++) {
                            b.put(at + j, (byte) 0);
                        }
                    }
                    return staging;
                });
            }
        }

        /** A fixed dataset of {@code shape} whose elements, of {@code memType}, {@code stager} stages. */
        private Dataset dataset(String name, DType fileType, long[] shape, DType memType, Stager stager) {
            return dataset(name, fileType, typeId(fileType), shape, typeId(memType), stager);
        }

        /**
         * As above with the library's type ids ({@code fileType} describes {@code fileTypeId} to messages; null for a
         * compound type, whose dataset is written once and never appended to).
         */
        private Dataset dataset(
                String name, @Nullable DType fileType, long fileTypeId, long[] shape, long memTypeId, Stager stager) {
            String p = child(path, name);
            long elements = elements(shape);
            long rowElements = 1;
            for (int d = 1; d < shape.length; d++) {
                rowElements *= shape[d];
            }
            long rowsPerChunk = Math.max(
                    1,
                    Math.min(shape.length == 0 ? 1 : shape[0], WriteLayout.CHUNK_ELEMENTS / Math.max(1, rowElements)));
            space.require(stored(elements * H5Tget_size(fileTypeId)), NativeHdf5.this.name + ": " + p);
            Dataset ds;
            try (Handle dcpl = propertyList(H5P_CLS_DATASET_CREATE_ID_g(), p)) {
                if (gzipLevel >= 0 && shape.length > 0 && elements > 0) {
                    long[] chunk = shape.clone();
                    chunk[0] = rowsPerChunk;
                    check(H5Pset_chunk(dcpl.id, chunk.length, chunk), p, "H5Pset_chunk");
                    check(H5Pset_deflate(dcpl.id, gzipLevel), p, "H5Pset_deflate");
                }
                ds = create(id, name, p, fileType, fileTypeId, shape, false, dcpl.id, H5P_DEFAULT);
            }
            try {
                ds.write(
                        shape,
                        memTypeId,
                        stager,
                        rowsPerChunk * Math.max(1, SLICE_ELEMENTS / (rowsPerChunk * Math.max(1, rowElements))));
            } catch (RuntimeException e) {
                closeAfter(ds, e);
                throw e;
            }
            return ds;
        }

        /**
         * Creates an empty 1-D dataset of {@code fileType} that grows by {@link Dataset#append}: chunks of
         * {@code chunk} elements (deflated when the file compresses) and a chunk cache of a few chunks, so that a
         * partly filled chunk stays in memory until it is complete and is written once.
         */
        Dataset extendable(String name, DType fileType, long chunk) {
            return extendable(name, fileType, new long[0], chunk);
        }

        /**
         * As {@link #extendable(String, DType, long)} for a dataset of rows of shape {@code rowShape} (a 2-D array
         * when it holds the number of columns): it grows along the first axis, in chunks of {@code chunkRows} rows.
         */
        Dataset extendable(String name, DType fileType, long[] rowShape, long chunkRows) {
            String p = child(path, name);
            long[] chunk = shapeOfRows(chunkRows, rowShape);
            long chunkElements = chunkRows * elements(rowShape);
            try (Handle dcpl = propertyList(H5P_CLS_DATASET_CREATE_ID_g(), p);
                    Handle dapl = propertyList(H5P_CLS_DATASET_ACCESS_ID_g(), p)) {
                check(H5Pset_chunk(dcpl.id, chunk.length, chunk), p, "H5Pset_chunk");
                if (gzipLevel >= 0) {
                    check(H5Pset_deflate(dcpl.id, gzipLevel), p, "H5Pset_deflate");
                }
                long cache = 4 * chunkElements * fileType.size();
                check(H5Pset_chunk_cache(dapl.id, 101, cache, 1.0), p, "H5Pset_chunk_cache");
                Dataset ds = create(id, name, p, fileType, shapeOfRows(0, rowShape), true, dcpl.id, dapl.id);
                if (rowShape.length == 0 && gzipLevel < 0 && WholeChunks.canHold(fileType)) {
                    ds.chunks = new WholeChunks(fileType, chunkElements);
                } else {
                    ds.cacheBytes = cache;
                }
                ds.tracked = ds::unwritten;
                space.track(ds.tracked);
                return ds;
            }
        }

        @Override
        int closeId(long id) {
            return H5Gclose(id);
        }
    }

    private Dataset create(
            long loc,
            String name,
            String path,
            DType fileType,
            long[] shape,
            boolean extendable,
            long dcpl,
            long dapl) {
        return create(loc, name, path, fileType, typeId(fileType), shape, extendable, dcpl, dapl);
    }

    private Dataset create(
            long loc,
            String name,
            String path,
            @Nullable DType fileType,
            long fileTypeId,
            long[] shape,
            boolean extendable,
            long dcpl,
            long dapl) {
        try (Handle space = space(path, shape, extendable);
                BytePointer n = utf8(name)) {
            long ds = check(
                    H5Dcreate2(loc, n, fileTypeId, space.id, LINK_CREATION, dcpl, dapl),
                    path,
                    "H5Dcreate2 " + (fileType == null ? "compound" : fileType));
            long[] rowShape = shape.length == 0 ? shape : Arrays.copyOfRange(shape, 1, shape.length);
            return new Dataset(ds, path, fileType, rowShape);
        }
    }

    /** The shape of {@code n} rows of shape {@code rowShape}. */
    private static long[] shapeOfRows(long n, long[] rowShape) {
        long[] shape = new long[rowShape.length + 1];
        shape[0] = n;
        System.arraycopy(rowShape, 0, shape, 1, rowShape.length);
        return shape;
    }

    /** The number of elements of an array of this shape (1 for a scalar). */
    private static long elements(long[] shape) {
        long n = 1;
        for (long d : shape) {
            n *= d;
        }
        return n;
    }

    /** Something that stages elements {@code [offset, offset + n)} of what is being appended. */
    private interface Stager {
        Pointer stage(long offset, int n);
    }

    /**
     * An HDF5 dataset: fixed (written once) or extendable along its first axis, whose rows have the shape
     * {@code rowShape} (none for a 1-D dataset, whose rows are single elements).
     */
    final class Dataset extends Node {
        /** The elements' type; null for a compound dataset, written once and never appended to. */
        private final @Nullable DType type;

        private final long[] rowShape;
        private final long rowElements;
        private long length;
        /**
         * For a 1-D dataset stored unfiltered: appends gather into a whole chunk, written as it is, past HDF5's
         * chunk cache (one copy fewer); else null, appends going through {@code H5Dwrite}.
         */
        private @Nullable WholeChunks chunks;

        private long chunksWritten;
        /** The chunk cache of an extendable dataset written through {@code H5Dwrite}, which it may hold unwritten. */
        private long cacheBytes;
        /** What {@link DiskSpace} counts of this dataset while it is open; null for a fixed dataset. */
        private @Nullable LongSupplier tracked;

        private Dataset(long id, String path, @Nullable DType type, long[] rowShape) {
            super(id, path);
            this.type = type;
            this.rowShape = rowShape;
            this.rowElements = elements(rowShape);
        }

        /**
         * Writes a whole fixed dataset of {@code shape}, whose elements (of {@code memType}) {@code stager} stages,
         * {@code rowsPerSlice} rows of the first axis per call.
         */
        private void write(long[] shape, long memType, Stager stager, long rowsPerSlice) {
            long size = elements(shape);
            if (size == 0) {
                return;
            }
            if (shape.length == 0) {
                check(H5Dwrite(id, memType, H5S_ALL, H5S_ALL, H5P_DEFAULT, stager.stage(0, 1)), path, "H5Dwrite");
                return;
            }
            long rowElements = size / shape[0];
            for (long row = 0; row < shape[0]; row += rowsPerSlice) {
                long[] start = new long[shape.length];
                long[] count = shape.clone();
                start[0] = row;
                count[0] = Math.min(rowsPerSlice, shape[0] - row);
                writeSlice(start, count, memType, stager.stage(row * rowElements, (int) (count[0] * rowElements)));
            }
        }

        /**
         * Appends {@code rows} rows whose elements are {@code data[from, from + rows * elements per row)} (of
         * {@code dataType}, converted to this type; for a 1-D dataset, {@code rows} elements).
         */
        void append(Object data, DType dataType, int from, int rows) {
            WholeChunks c = chunks;
            if (c != null && c.takes(data)) {
                appendWhole(c, rows, (at, offset, n) -> c.put(at, data, from + offset, n, 0));
                return;
            }
            append(rows, typeId(dataType), (offset, n) -> stage(data, dataType, from + (int) offset, n));
        }

        /** Appends {@code local[from + i] + add} for i in [0, count): row pointers made global. */
        void appendOffsets(int[] local, int from, int count, long add) {
            WholeChunks c = chunks;
            if (c != null && (type == DType.INT64 || type == DType.INT32)) {
                appendWhole(c, count, (at, offset, n) -> c.put(at, local, from + offset, n, add));
                return;
            }
            append(count, typeId(DType.INT64), (offset, n) -> stageOffsets(local, from + (int) offset, n, add));
        }

        /**
         * The bytes the file will take for what this dataset holds unwritten: the chunk being gathered (written
         * whole), or what the chunk cache may hold of the rows appended, as they will be stored.
         */
        long unwritten() {
            WholeChunks c = chunks;
            if (c != null) {
                return c.filled() > 0 ? c.bytes() : 0;
            }
            return stored(
                    Math.min(cacheBytes, length * rowElements * appendedType().size()));
        }

        /** Appends {@code count} elements to the chunk being gathered in {@code chunks}, writing each once whole. */
        private void appendWhole(WholeChunks chunks, int count, WholeChunks.Filler fill) {
            long filled = chunks.filled();
            long whole = (filled + count + chunks.elements() - 1) / chunks.elements() - (filled > 0 ? 1 : 0);
            space.require(whole * chunks.bytes(), NativeHdf5.this.name + ": " + path); // the one gathered: unwritten()
            for (int done = 0; done < count; ) {
                int n = (int) Math.min(count - done, chunks.room());
                fill.fill(chunks.filled(), done, n);
                chunks.added(n);
                done += n;
                length += n;
                if (chunks.room() == 0) {
                    writeChunk(chunks);
                }
            }
        }

        /** Grows the dataset to its length and writes the chunk gathered in {@code c} (the last one padded). */
        private void writeChunk(WholeChunks c) {
            check(H5Dset_extent(id, length), path, "H5Dset_extent");
            try (LongPointer offset = new LongPointer(1)) {
                offset.put(0, chunksWritten * c.elements());
                check(H5Dwrite_chunk(id, H5P_DEFAULT, 0, offset, c.bytes(), c.padded()), path, "H5Dwrite_chunk");
            }
            chunksWritten++;
            c.clear();
        }

        /** Writes the last chunk gathered, if any, and closes the dataset. */
        @Override
        public void close() {
            WholeChunks c = chunks;
            chunks = null;
            try {
                if (c != null && c.filled() > 0) {
                    writeChunk(c);
                }
            } finally {
                if (c != null) {
                    c.free();
                }
                if (tracked != null) {
                    space.release(tracked);
                }
                super.close();
            }
        }

        /** The elements' type of a dataset appended to: never a compound one, written once. */
        private DType appendedType() {
            return Objects.requireNonNull(type, "a compound dataset is never appended to");
        }

        /** Grows the first axis by {@code rows} and writes them, staged a slice of whole rows at a time. */
        private void append(long rows, long memType, Stager stager) {
            if (rows == 0) {
                return;
            }
            space.require(stored(rows * rowElements * appendedType().size()), NativeHdf5.this.name + ": " + path);
            long[] extent = shapeOfRows(length + rows, rowShape);
            check(H5Dset_extent(id, extent), path, "H5Dset_extent");
            long rowsPerSlice = Math.max(1, SLICE_ELEMENTS / Math.max(1, rowElements));
            for (long done = 0; done < rows; ) {
                long n = Math.min(rowsPerSlice, rows - done);
                long[] start = new long[extent.length];
                start[0] = length + done;
                writeSlice(start, shapeOfRows(n, rowShape), memType, stager.stage(done * rowElements, (int)
                        (n * rowElements)));
                done += n;
            }
            length += rows;
        }

        private void writeSlice(long[] start, long[] count, long memType, Pointer buffer) {
            try (Handle fileSpace = selection(start, count);
                    Handle memSpace = space(path, count, false)) {
                check(H5Dwrite(id, memType, memSpace.id, fileSpace.id, H5P_DEFAULT, buffer), path, "H5Dwrite");
            }
        }

        /** The file dataspace with the block {@code [start, start + count)} selected. */
        private Handle selection(long[] start, long[] count) {
            Handle space = handle(H5Dget_space(id), path, "H5Dget_space", hdf5::H5Sclose);
            try {
                check(
                        H5Sselect_hyperslab(space.id, H5S_SELECT_SET, start, null, count, null),
                        path,
                        "H5Sselect_hyperslab");
                return space;
            } catch (RuntimeException e) {
                closeAfter(space, e);
                throw e;
            }
        }

        @Override
        int closeId(long id) {
            return H5Dclose(id);
        }
    }
}

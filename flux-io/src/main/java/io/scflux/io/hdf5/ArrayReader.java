/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.jhdf.api.Dataset;
import io.jhdf.api.Node;
import io.jhdf.api.dataset.ContiguousDataset;
import io.jhdf.dataset.DatasetReader;
import io.jhdf.object.datatype.CompoundDataType;
import io.jhdf.object.datatype.VariableLength;
import io.scflux.core.DType;
import io.scflux.core.MemoryAccount;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.PackedStrings;
import io.scflux.core.anndata.RecordArray;
import io.scflux.io.safety.FileStamp;
import java.lang.reflect.Array;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Reads whole datasets (metadata: columns, embeddings, uns values) into {@link DenseArray}s, undoing what jhdf does
 * to types on the way: unsigned integers come back widened, bools (h5py's enum) as "TRUE"/"FALSE" strings, float16
 * as float32, scalars boxed, and empty datasets as {@code Object[]}.
 *
 * <p>Public because the h5ad encoding (io.scflux.io) and Cell Ranger's reader, above this package, read their arrays
 * through it.
 */
public final class ArrayReader {

    /** What a Java string of a short name costs: the String, its byte array and the reference. */
    private static final int STRING_BYTES = 64;

    /** HDF5's undefined address: storage never allocated (all fill value). */
    private static final long UNDEFINED_ADDRESS = -1L;

    private ArrayReader() {}

    /** The whole dataset at {@code node}, of any rank; a scalar has shape {@code []}. */
    public static DenseArray read(Node node) {
        Dataset ds = dataset(node);
        DType t = Hdf5.dtypeOf(ds);
        long[] shape = ds.isScalar() ? new long[0] : ds.getDimensionsAsLong();
        int n = elements(ds, t, shape);
        checkWithinFile(ds);
        Object raw = n == 0 ? null : ds.isScalar() ? ds.getData() : flat(ds, t, n);
        return DenseArray.of(t, storage(ds, t, raw, n), shape);
    }

    /**
     * The elements in row-major order as jhdf types them, from bytes read into the heap (jhdf would map a contiguous
     * dataset, and mapped pages stay resident until the collector drops the mapping). Filtered chunks are decoded by
     * scflux's own codecs: jhdf's lzf filter needs the chunk size in the filter's parameters, which h5py leaves out
     * for string datasets.
     */
    private static Object flat(Dataset ds, DType t, int n) {
        if (isVlenStrings(ds)) {
            return packed(ds, n).toArray();
        }
        ByteBuffer bytes = unfiltered(ds, t);
        if (t == DType.INT8 && bytes.hasArray() && bytes.arrayOffset() == 0 && bytes.array().length == n) {
            return bytes.array(); // int8 values are their bytes (a categorical's codes): no second array
        }
        return DatasetReader.readDataset(
                ds.getDataType(), bytes, n, ds.getHdfFile().getHdfBackingStorage());
    }

    /** The bytes of dataset {@code ds} of type {@code t} (any layout) after its filters, read into the heap. */
    private static ByteBuffer unfiltered(Dataset ds, DType t) {
        return Stored.of(ds, t).read((stored, s) -> stored.readAll(s));
    }

    /** A dataset described from the open file, read later through a storage of the file as it was then. */
    private record Stored(Path file, FileStamp stamp, StoredArray array) {

        static Stored of(Dataset ds, DType t) {
            Path file = ds.getFileAsPath();
            FileStamp stamp = FileStamp.of(file);
            return new Stored(file, stamp, StoredArray.anyType(ds, t, stamp.size()));
        }

        /** What {@code read} makes of the dataset through a storage open for the call (refused if the file changed). */
        public <R> R read(BiFunction<StoredArray, Storage, R> read) {
            try (Storage s = Storage.open(file, stamp, new ReadStats())) {
                return read.apply(array, s);
            }
        }
    }

    private static boolean isVlenStrings(Dataset ds) {
        return ds.getDataType() instanceof VariableLength v && v.isVariableLengthString();
    }

    /** A variable-length string dataset of {@code n} elements, decoded from its raw bytes after any filters. */
    private static PackedStrings packed(Dataset ds, int n) {
        return Stored.of(ds, DType.STRING)
                .read((refs, s) -> VlenStrings.of(ds, refs, n).decode(s));
    }

    /** An index of {@code size} names and how to read them (again, if need be). */
    public record Names(int size, Supplier<PackedStrings> read) {}

    /**
     * An index (obs or var names): as {@link #strings}, kept packed. A variable-length one never becomes Java strings
     * and is decoded when {@code read} is first called, through a storage of the file opened then (which fails if the
     * file changed): a million cell names then cost nothing to a step that does not use them. What its references
     * declare is checked against the memory budget now.
     */
    public static Names names(Node node) {
        if (node instanceof Dataset ds && !ds.isScalar() && isVlenStrings(ds)) {
            long[] shape = ds.getDimensionsAsLong();
            if (shape.length != 1) {
                throw Hdf5.error(node, "expected a 1-D array, found shape " + Arrays.toString(shape));
            }
            checkWithinFile(ds);
            int n = elements(ds, DType.STRING, shape);
            if (n == 0) {
                PackedStrings none = PackedStrings.of(new String[0]);
                return new Names(0, () -> none);
            }
            Stored refs = Stored.of(ds, DType.STRING);
            VlenStrings strings = VlenStrings.of(ds, refs.array(), n);
            long declared = refs.read((a, s) -> strings.declaredBytes(s));
            return new Names(n, () -> refs.read((a, s) -> strings.decode(s, declared)));
        }
        PackedStrings names = PackedStrings.of(strings(node));
        return new Names(names.size(), () -> names);
    }

    /** A 1-D dataset: a column, its codes, categories or mask. */
    public static DenseArray vector(Node node) {
        DenseArray a = read(node);
        if (a.ndim() != 1) {
            throw Hdf5.error(node, "expected a 1-D array, found shape " + Arrays.toString(a.shape()));
        }
        return a;
    }

    /**
     * The strings at {@code node}: a string dataset, or a {@code nullable-string-array} group without missing
     * entries (anndata >= 0.11 writes indexes and categories so when pandas infers strings).
     */
    public static String[] strings(Node node) {
        if (node.isGroup()) {
            if (!"nullable-string-array".equals(Hdf5.encodingType(node))) {
                throw Hdf5.error(
                        node,
                        "expected strings (a string-array dataset), found a group with encoding-type "
                                + Hdf5.encodingType(node));
            }
            String[] values = strings(Hdf5.child(node, "values"));
            boolean[] mask = bools(Hdf5.child(node, "mask"));
            for (int i = 0; i < mask.length; i++) {
                if (mask[i]) {
                    throw Hdf5.error(node, "entry " + i + " is missing; names and categories cannot be missing");
                }
            }
            return values;
        }
        DenseArray a = vector(node);
        if (a.dtype() != DType.STRING) {
            throw Hdf5.error(node, "expected strings, found " + a.dtype());
        }
        return a.strings();
    }

    /** A 1-D bool dataset (a nullable column's mask). */
    public static boolean[] bools(Node node) {
        DenseArray a = vector(node);
        if (a.dtype() != DType.BOOL) {
            throw Hdf5.error(node, "expected a bool array, found " + a.dtype());
        }
        return (boolean[]) a.data();
    }

    /**
     * A structured (compound) 1-D dataset, anndata's {@code rec-array} (scanpy's rank_genes_groups names, scores):
     * one 1-D array per field, in field order.
     */
    public static RecordArray record(Node node) {
        Dataset ds = dataset(node);
        if (!(ds.getDataType() instanceof CompoundDataType type)) {
            throw Hdf5.error(node, "expected a structured (compound) dataset, found " + Hdf5.typeName(ds));
        }
        long[] shape = ds.getDimensionsAsLong();
        if (shape.length != 1) {
            throw Hdf5.error(node, "expected a 1-D structured array, found shape " + Arrays.toString(shape));
        }
        int n = elements(ds, Math.max(1, type.getSize()), "structured", shape);
        Map<?, ?> fields = n == 0 ? Map.of() : (Map<?, ?>) ds.getData();
        Map<String, DenseArray> out = new LinkedHashMap<>();
        for (CompoundDataType.CompoundDataMember m : type.getMembers()) {
            if (m.getDimensionSize().length > 0) {
                throw Hdf5.error(node, "field '" + m.getName() + "' is an array; only scalar fields are supported");
            }
            DType t = Hdf5.dtypeOf(ds, m.getDataType());
            out.put(m.getName(), DenseArray.of(t, storage(ds, t, fields.get(m.getName()), n), n));
        }
        return RecordArray.of(out);
    }

    /** True when {@code node} is a structured (compound) dataset. */
    public static boolean isRecord(Node node) {
        return node instanceof Dataset ds && ds.getDataType() instanceof CompoundDataType;
    }

    private static Dataset dataset(Node node) {
        if (node instanceof Dataset ds) {
            return ds;
        }
        throw Hdf5.error(node, "expected a dataset, found a group");
    }

    /**
     * Refuses contiguous data that claims to reach past the end of the file (a truncated or damaged file), which
     * jhdf would otherwise try to allocate and read.
     */
    private static void checkWithinFile(Dataset ds) {
        if (ds instanceof ContiguousDataset c) {
            long address = c.getDataAddress();
            long bytes = ds.getSizeInBytes();
            long fileSize = ds.getHdfFile().size();
            if (address != UNDEFINED_ADDRESS && bytes > 0 && (address < 0 || address + bytes > fileSize)) {
                throw Hdf5.error(
                        ds,
                        "damaged or truncated: " + bytes + " bytes of data at offset " + address + ", but the file has "
                                + fileSize);
            }
        }
    }

    /** The element count, refused up front when holding it would not fit the memory budget. */
    private static int elements(Dataset ds, DType t, long[] shape) {
        return elements(ds, t == DType.STRING ? STRING_BYTES : Math.max(1, t.size()), t.toString(), shape);
    }

    private static int elements(Dataset ds, int bytesPerElement, String type, long[] shape) {
        return MemoryAccount.host()
                .requireArray(
                        product(shape),
                        bytesPerElement,
                        Hdf5.fileName(ds) + ": " + Hdf5.path(ds) + ": a " + type + " array of shape "
                                + Arrays.toString(shape));
    }

    /** The product of {@code dims}, or {@link Long#MAX_VALUE} when it overflows or a dimension is negative. */
    public static long product(long... dims) {
        long n = 1;
        for (long d : dims) {
            if (d < 0) {
                return Long.MAX_VALUE;
            }
            try {
                n = Math.multiplyExact(n, d);
            } catch (ArithmeticException e) {
                return Long.MAX_VALUE;
            }
        }
        return n;
    }

    /**
     * The Java array {@link DenseArray} holds for {@code t}, from what jhdf returned ({@code raw}: an array, a boxed
     * scalar, or null when {@code n} is 0).
     */
    private static Object storage(Node at, DType t, @Nullable Object raw, int n) {
        Class<?> target = DenseArray.javaType(t);
        if (n == 0) {
            return Array.newInstance(target.getComponentType(), 0);
        }
        Object a = raw != null && raw.getClass().isArray() ? raw : boxed(raw);
        if (a == null || Array.getLength(a) != n) {
            throw Hdf5.error(at, "jhdf returned " + describe(raw) + " for " + n + " " + t + " values");
        }
        if (a.getClass() == target) {
            return a;
        }
        switch (t) {
            case BOOL:
                if (a instanceof String[] s) {
                    return bools(s);
                }
                break;
            case UINT8:
                if (a instanceof int[] i) {
                    return narrowToBytes(i);
                }
                break;
            case UINT16:
                if (a instanceof int[] i) {
                    return narrowToShorts(i);
                }
                break;
            case UINT32:
                if (a instanceof long[] l) {
                    return narrowToInts(l);
                }
                break;
            case UINT64:
                if (a instanceof BigInteger[] b) {
                    return lowLongs(b);
                }
                break;
            default:
                break;
        }
        throw Hdf5.error(at, "jhdf returned " + describe(raw) + " for " + t + " values");
    }

    /** A one-element array holding jhdf's boxed scalar, of the primitive type where there is one. */
    private static @Nullable Object boxed(@Nullable Object v) {
        if (v == null) {
            return null;
        }
        Class<?> c = v instanceof Byte
                ? byte.class
                : v instanceof Short
                        ? short.class
                        : v instanceof Integer
                                ? int.class
                                : v instanceof Long
                                        ? long.class
                                        : v instanceof Float
                                                ? float.class
                                                : v instanceof Double ? double.class : v.getClass();
        Object a = Array.newInstance(c, 1);
        Array.set(a, 0, v);
        return a;
    }

    private static boolean[] bools(String[] labels) {
        boolean[] out = new boolean[labels.length];
        for (int i = 0; i < labels.length; i++) {
            out[i] = "TRUE".equalsIgnoreCase(labels[i]);
        }
        return out;
    }

    private static byte[] narrowToBytes(int[] a) {
        byte[] out = new byte[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (byte) a[i];
        }
        return out;
    }

    private static short[] narrowToShorts(int[] a) {
        short[] out = new short[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (short) a[i];
        }
        return out;
    }

    private static int[] narrowToInts(long[] a) {
        int[] out = new int[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = (int) a[i];
        }
        return out;
    }

    private static long[] lowLongs(BigInteger[] a) {
        long[] out = new long[a.length];
        for (int i = 0; i < a.length; i++) {
            out[i] = a[i].longValue();
        }
        return out;
    }

    private static String describe(@Nullable Object v) {
        return v == null
                ? "nothing"
                : v.getClass().isArray()
                        ? v.getClass().getComponentType().getSimpleName() + "[" + Array.getLength(v) + "]"
                        : v.getClass().getSimpleName();
    }
}

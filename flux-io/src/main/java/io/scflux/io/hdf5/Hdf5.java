/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.jhdf.HdfFile;
import io.jhdf.api.Attribute;
import io.jhdf.api.Dataset;
import io.jhdf.api.Group;
import io.jhdf.api.Link;
import io.jhdf.api.Node;
import io.jhdf.exceptions.HdfException;
import io.jhdf.links.ExternalLink;
import io.jhdf.object.datatype.DataType;
import io.jhdf.object.datatype.EnumDataType;
import io.jhdf.object.datatype.FixedPoint;
import io.jhdf.object.datatype.FloatingPoint;
import io.jhdf.object.datatype.StringData;
import io.jhdf.object.datatype.VariableLength;
import io.scflux.core.DType;
import io.scflux.core.MemoryBudgetExceededException;
import io.scflux.core.ScfluxFormatException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/** Attribute, type and error helpers shared by the readers of the anndata on-disk format (read through jhdf). *
 * <p>Public because the h5ad encoding, the transposed store and Cell Ranger's reader, above this package, walk files
 * through it.
 */
public final class Hdf5 {

    public static final String ENCODING_TYPE = "encoding-type";
    public static final String ENCODING_VERSION = "encoding-version";

    /** The encoding-versions anndata (0.8 to 0.11) reads, by encoding-type (its registry of readers). */
    private static final Map<String, Set<String>> ENCODING_VERSIONS = Map.ofEntries(
            Map.entry("anndata", Set.of("0.1.0")), Map.entry("raw", Set.of("0.1.0")),
            Map.entry("dict", Set.of("0.1.0")), Map.entry("dataframe", Set.of("0.1.0", "0.2.0")),
            Map.entry("array", Set.of("0.2.0")), Map.entry("rec-array", Set.of("0.2.0")),
            Map.entry("csr_matrix", Set.of("0.1.0")), Map.entry("csc_matrix", Set.of("0.1.0")),
            Map.entry("categorical", Set.of("0.2.0")), Map.entry("string-array", Set.of("0.2.0")),
            Map.entry("string", Set.of("0.2.0")), Map.entry("numeric-scalar", Set.of("0.2.0")),
            Map.entry("nullable-integer", Set.of("0.1.0")), Map.entry("nullable-boolean", Set.of("0.1.0")),
            Map.entry("nullable-string-array", Set.of("0.1.0")), Map.entry("awkward-array", Set.of("0.1.0")));

    private Hdf5() {}

    /** HDF5's superblock signature, found at offset 0 or after a user block of 512, 1024, 2048... bytes. */
    private static final byte[] SIGNATURE = {(byte) 0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

    /**
     * Opens {@code file} with jhdf once its HDF5 signature is found: jhdf opens the file before looking for it and
     * does not close it when there is none, so every attempt on a file that is not HDF5 held a descriptor until a
     * garbage collection. An {@link HdfException} (as jhdf's) when there is none.
     */
    public static HdfFile open(Path file) {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            ByteBuffer head = ByteBuffer.allocate(SIGNATURE.length);
            for (long at = 0; at + SIGNATURE.length <= size; at = at == 0 ? 512 : 2 * at) {
                head.clear();
                while (head.hasRemaining() && ch.read(head, at + head.position()) >= 0) {
                    // a read may return fewer bytes
                }
                if (Arrays.equals(head.array(), SIGNATURE)) {
                    return new HdfFile(file);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        throw new HdfException("No valid HDF5 signature found");
    }

    /** The error for {@code node}, naming its file and HDF5 path. */
    public static ScfluxFormatException error(Node node, String problem) {
        return new ScfluxFormatException(fileName(node), path(node), problem);
    }

    public static ScfluxFormatException error(Node node, String problem, Throwable cause) {
        return new ScfluxFormatException(fileName(node), path(node), problem, cause);
    }

    /** The HDF5 path as h5py writes it: jhdf ends group paths with "/", which messages leave out. */
    public static String path(Node node) {
        String p = node.getPath();
        return p.length() > 1 && p.endsWith("/") ? p.substring(0, p.length() - 1) : p;
    }

    static String fileName(Node node) {
        try {
            return String.valueOf(node.getFileAsPath());
        } catch (RuntimeException e) {
            return "<hdf5>";
        }
    }

    /**
     * The child {@code name} of {@code node} (a soft link followed to its target), or null when {@code node} is not a
     * group or has no such child.
     */
    public static @Nullable Node childOrNull(@Nullable Node node, String name) {
        if (!(node instanceof Group g)) {
            return null;
        }
        Node child;
        try {
            child = g.getChild(name);
        } catch (RuntimeException e) {
            throw error(node, "unreadable member '" + name + "': " + e.getMessage(), e);
        }
        return child == null ? null : resolve(child);
    }

    /** Soft links followed in a row at most: more is a loop of links (h5py's limit is the library's, 16). */
    static final int MAX_SOFT_LINKS = 16;

    /**
     * {@code node}, or the object a soft link (or a chain of them) names: an error naming the link for a dangling
     * link, a loop of links, or an external link (into another file, which scflux does not open). The target path is
     * walked here, member by member, counting the links followed: jhdf's own resolution recurses without end on a
     * loop.
     */
    public static Node resolve(Node node) {
        return resolve(node, node, new int[1]);
    }

    private static Node resolve(Node link, Node at, int[] hops) {
        while (at instanceof Link l) {
            if (at instanceof ExternalLink) {
                throw error(link, "an external link to " + l.getTargetPath() + ", which scflux does not follow");
            }
            if (++hops[0] > MAX_SOFT_LINKS) {
                throw error(
                        link,
                        "a loop of soft links (more than " + MAX_SOFT_LINKS + " followed, the last to "
                                + l.getTargetPath() + ")");
            }
            at = walk(
                    link,
                    l.getTargetPath().startsWith("/") ? at.getHdfFile() : at.getParent(),
                    l.getTargetPath(),
                    hops);
        }
        return at;
    }

    /** The object at {@code path} from {@code from} (a group), links on the way followed by {@link #resolve}. */
    private static Node walk(Node link, Node from, String path, int[] hops) {
        Node at = from;
        for (String name : path.split("/")) {
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            Node child = at instanceof Group g ? g.getChild(name) : null;
            if (child == null) {
                throw error(link, "a soft link to " + path + ", which does not exist");
            }
            at = resolve(link, child, hops);
        }
        return at;
    }

    /** The child {@code name} of the group {@code node}; an error naming it when it is missing. */
    public static Node child(Node node, String name) {
        Node c = childOrNull(node, name);
        if (c == null) {
            throw error(
                    node,
                    node.isGroup()
                            ? "missing '" + name + "'"
                            : "expected a group with '" + name + "', found a dataset");
        }
        return c;
    }

    /**
     * anndata's {@code encoding-type} attribute, or null when absent; an error when its {@code encoding-version} is
     * one anndata does not read for that type (anndata keys its readers by both and refuses the rest). An element
     * without a version (written before anndata 0.8) is read as it always was.
     */
    public static @Nullable String encodingType(Node node) {
        String type = stringAttr(node, ENCODING_TYPE);
        Set<String> known = type == null ? null : ENCODING_VERSIONS.get(type);
        String version = known == null ? null : stringAttr(node, ENCODING_VERSION);
        if (version != null && known != null && !known.contains(version)) {
            throw error(
                    node,
                    "unsupported encoding-version " + version + " of encoding-type " + type
                            + " (anndata and scflux read " + String.join(" and ", new TreeSet<>(known)) + ")");
        }
        return type;
    }

    /** A scalar string attribute, or null when absent; an error when it is not a string. */
    public static @Nullable String stringAttr(Node node, String name) {
        Object v = attr(node, name);
        if (v == null) {
            return null;
        }
        if (v instanceof String s) {
            return s;
        }
        if (v.getClass().isArray() && Array.getLength(v) == 1 && Array.get(v, 0) instanceof String s) {
            return s;
        }
        throw error(node, "attribute '" + name + "': expected a string, found " + describe(v));
    }

    /** A string array attribute ({@code column-order}), empty when absent. */
    public static String[] stringArrayAttr(Node node, String name) {
        Object v = attr(node, name);
        if (v == null) {
            return new String[0];
        }
        if (v instanceof String[] s) {
            return s;
        }
        if (v instanceof String s) {
            return new String[] {s};
        }
        if (v.getClass().isArray() && Array.getLength(v) == 0) {
            return new String[0];
        }
        throw error(node, "attribute '" + name + "': expected an array of strings, found " + describe(v));
    }

    /** An integer array attribute ({@code shape}), or null when absent. */
    public static long @Nullable [] longArrayAttr(Node node, String name) {
        Object v = attr(node, name);
        if (v == null) {
            return null;
        }
        if (v instanceof long[] l) {
            return l;
        }
        if (v instanceof int[] i) {
            long[] out = new long[i.length];
            for (int k = 0; k < i.length; k++) {
                out[k] = i[k];
            }
            return out;
        }
        if (v instanceof Number n) {
            return new long[] {n.longValue()};
        }
        throw error(node, "attribute '" + name + "': expected integers, found " + describe(v));
    }

    /** A boolean attribute (h5py stores numpy bools as an enum that reads back as "TRUE"/"FALSE"). */
    public static boolean boolAttr(Node node, String name, boolean absent) {
        Object v = attr(node, name);
        if (v == null) {
            return absent;
        }
        if (v.getClass().isArray() && Array.getLength(v) == 1) {
            v = Array.get(v, 0);
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof String s && (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false"))) {
            return Boolean.parseBoolean(s.toLowerCase());
        }
        if (v instanceof Number n) {
            return n.longValue() != 0;
        }
        throw error(node, "attribute '" + name + "': expected a bool, found " + describe(v));
    }

    /** True when {@code node} has the attribute {@code name}, even an empty one (jhdf reads those as null). */
    public static boolean hasAttr(Node node, String name) {
        try {
            return node.getAttributes().containsKey(name);
        } catch (RuntimeException e) {
            throw error(node, "unreadable attributes: " + e.getMessage(), e);
        }
    }

    /**
     * Runs {@code read} on the element at {@code node}, turning any failure that is not already a
     * {@link ScfluxFormatException} (jhdf's exceptions, or a value the container rejects) into one naming the node.
     */
    public static <T> T guard(Node node, Supplier<T> read) {
        try {
            return read.get();
        } catch (ScfluxFormatException | MemoryBudgetExceededException e) {
            throw e;
        } catch (RuntimeException e) {
            throw error(
                    node,
                    e instanceof IllegalArgumentException && e.getMessage() != null
                            ? e.getMessage()
                            : "unreadable (" + e + ")",
                    e);
        } catch (OutOfMemoryError e) {
            throw declaredTooLarge(fileName(node), path(node), e);
        }
    }

    /**
     * jhdf allocates what a damaged header declares (an object header's size) before checking it against the file:
     * when that one allocation fails, nothing was half built, so it is the file's error, reported as such.
     */
    public static MemoryBudgetExceededException declaredTooLarge(String file, String path, OutOfMemoryError e) {
        return new MemoryBudgetExceededException(file + ": " + path + ": a size declared in the file's metadata "
                + "here does not fit in memory (" + e.getMessage() + "); the file is damaged or larger than the heap "
                + "(java -Xmx)");
    }

    private static @Nullable Object attr(Node node, String name) {
        Map<String, Attribute> attrs;
        try {
            attrs = node.getAttributes();
        } catch (RuntimeException e) {
            throw error(node, "unreadable attributes: " + e.getMessage(), e);
        }
        Attribute a = attrs.get(name);
        if (a == null) {
            return null;
        }
        try {
            return a.getData();
        } catch (RuntimeException e) {
            throw error(node, "unreadable attribute '" + name + "': " + e.getMessage(), e);
        }
    }

    /** The numpy type of a dataset's elements; an error for types anndata never writes (compound, references). */
    static DType dtypeOf(Dataset ds) {
        DataType t;
        try {
            t = ds.getDataType();
        } catch (RuntimeException e) {
            throw error(ds, "unreadable datatype: " + e.getMessage(), e);
        }
        return dtypeOf(ds, t);
    }

    /** The numpy type of {@code t}, a type stored at {@code ds} (its own, or a member of its compound type). */
    static DType dtypeOf(Node ds, DataType t) {
        if (t instanceof FloatingPoint) {
            switch (t.getSize()) {
                case 4:
                    return DType.FLOAT32;
                case 8:
                    return DType.FLOAT64;
                case 2:
                    return DType.FLOAT32;
                default:
                    throw error(ds, "unsupported float size " + t.getSize());
            }
        }
        if (t instanceof FixedPoint f) {
            boolean signed = f.isSigned();
            switch (t.getSize()) {
                case 1:
                    return signed ? DType.INT8 : DType.UINT8;
                case 2:
                    return signed ? DType.INT16 : DType.UINT16;
                case 4:
                    return signed ? DType.INT32 : DType.UINT32;
                case 8:
                    return signed ? DType.INT64 : DType.UINT64;
                default:
                    throw error(ds, "unsupported integer size " + t.getSize());
            }
        }
        if (t instanceof EnumDataType e && isBoolEnum(e)) {
            return DType.BOOL;
        }
        if (t instanceof StringData || (t instanceof VariableLength v && v.isVariableLengthString())) {
            return DType.STRING;
        }
        throw error(ds, "unsupported datatype " + t.getClass().getSimpleName());
    }

    /** True for h5py's bool: an enum of {FALSE: 0, TRUE: 1}. */
    static boolean isBoolEnum(EnumDataType e) {
        Map<Integer, String> m = e.getEnumMapping();
        return m.size() == 2 && "FALSE".equalsIgnoreCase(m.get(0)) && "TRUE".equalsIgnoreCase(m.get(1));
    }

    /** The numpy name of a dataset's type for messages, or its jhdf class where it has none. */
    static String typeName(Dataset ds) {
        try {
            return dtypeOf(ds).numpyName();
        } catch (ScfluxFormatException e) {
            return ds.getDataType().getClass().getSimpleName();
        }
    }

    private static String describe(Object v) {
        return v.getClass().isArray()
                ? v.getClass().getComponentType().getSimpleName() + "[" + Array.getLength(v) + "]"
                : v.getClass().getSimpleName() + " " + v;
    }
}

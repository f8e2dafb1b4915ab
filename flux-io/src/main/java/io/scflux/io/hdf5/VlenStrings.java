/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import io.jhdf.api.Dataset;
import io.jhdf.storage.HdfBackingStorage;
import io.scflux.core.MemoryAccount;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.PackedStrings;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Iterator;
import java.util.Map;
import org.jspecify.annotations.Nullable;

/**
 * Decodes a variable-length string dataset from its global heap collections, one collection at a time, into
 * {@link PackedStrings}. jhdf keeps every collection and a heap id object per element alive until the last string is
 * made (hundreds of MB for a million cell barcodes); this keeps a few recent collections and copies the bytes.
 */
final class VlenStrings {

    /** Collections kept decoded: strings written together sit in the same or the next collection. */
    private static final int COLLECTIONS_KEPT = 8;

    private static final int GCOL = 0x4C4F4347; // "GCOL" read little-endian
    /** References read at once: 1 MiB of them. */
    private static final int REFERENCES_PER_READ = 1 << 16;

    private final String file;
    private final String path;
    private final StoredArray refs;
    private final int n;
    private final long fileSize;
    private final int offsetSize;
    private final int lengthSize;

    private VlenStrings(Dataset ds, StoredArray refs, int n) {
        HdfBackingStorage hdf = ds.getHdfFile().getHdfBackingStorage();
        this.file = Hdf5.fileName(ds);
        this.path = Hdf5.path(ds);
        this.refs = refs;
        this.n = n;
        this.fileSize = hdf.size();
        this.offsetSize = hdf.getSizeOfOffsets();
        this.lengthSize = hdf.getSizeOfLengths();
        int elementSize = 4 + offsetSize + 4;
        if (refs.elementSize() != elementSize) {
            throw error("expected variable-length string references of " + elementSize
                    + " bytes (length, heap address, index), the dataset's elements take " + refs.elementSize());
        }
    }

    /**
     * The {@code n} strings of {@code ds} whose heap references {@code refs} holds (per element, after any filters: a
     * 4-byte length, a collection address and a 4-byte object index), described from the open file and decoded later
     * through any storage of the same file ({@link #decode}): nothing of jhdf's is kept.
     */
    static VlenStrings of(Dataset ds, StoredArray refs, int n) {
        return new VlenStrings(ds, refs, n);
    }

    /**
     * The bytes the references declare, read through {@code s}: what {@link #decode} holds, refused past the memory
     * budget before anything is allocated.
     */
    long declaredBytes(Storage s) {
        int elementSize = refs.elementSize();
        long[] declared = {0};
        forEachSlice(s, (raw, first, count) -> {
            for (int i = 0; i < count; i++) {
                declared[0] += Integer.toUnsignedLong(raw.getInt(i * elementSize));
            }
        });
        MemoryAccount.host()
                .requireArray(
                        declared[0],
                        1,
                        file + ": " + path + ": the bytes of " + n + " strings, as their references declare them");
        return declared[0];
    }

    /**
     * The strings, read through {@code s} a slice of references at a time, so that a million cells' 16 MB of
     * references is never one array; {@code declared}: their {@link #declaredBytes}, so that the bytes are sized
     * once, exactly, before any is copied. ASCII and UTF-8 strings both keep their bytes.
     */
    PackedStrings decode(Storage s, long declared) {
        int elementSize = refs.elementSize();
        byte[] utf8 = new byte[(int) declared];
        int[] ends = new int[n];
        int[] used = {0};
        Collections recent = new Collections(s);
        forEachSlice(s, (raw, first, count) -> {
            for (int i = 0; i < count; i++) {
                int at = i * elementSize;
                int length = raw.getInt(at);
                if (length != 0) {
                    long address = offsetSize == 8 ? raw.getLong(at + 4) : Integer.toUnsignedLong(raw.getInt(at + 4));
                    int object = raw.getInt(at + 4 + offsetSize);
                    Collection c = recent.at(address);
                    int from = c.start(object, first + i);
                    int len = Math.min(length, c.length(object));
                    if (len > utf8.length - used[0]) {
                        throw error("string " + (first + i) + " is longer than the references declared when "
                                + "they were first read: the file changed in between");
                    }
                    System.arraycopy(c.bytes, from, utf8, used[0], len);
                    used[0] += len;
                }
                ends[first + i] = used[0];
            }
        });
        int bad = Utf8.firstInvalid(utf8, used[0]);
        if (bad >= 0) {
            int string = 0;
            while (ends[string] <= bad) {
                string++;
            }
            throw error("string " + string + " is not UTF-8 (byte " + (bad - (string == 0 ? 0 : ends[string - 1]))
                    + " of it): anndata could not read it back; rewrite the names as UTF-8");
        }
        // a heap object shorter than its reference's length leaves the bytes longer than the strings
        return PackedStrings.of(used[0] == utf8.length ? utf8 : Arrays.copyOf(utf8, used[0]), ends);
    }

    /** The strings, read through {@code s} now. */
    PackedStrings decode(Storage s) {
        return decode(s, declaredBytes(s));
    }

    private ScfluxFormatException error(String problem) {
        return new ScfluxFormatException(file, path, problem);
    }

    /** What is done with the references of strings {@code [first, first + count)}, little-endian from 0. */
    private interface Slice {
        void accept(ByteBuffer raw, int first, int count);
    }

    private void forEachSlice(Storage s, Slice slice) {
        for (int first = 0; first < n; first += REFERENCES_PER_READ) {
            int from = first;
            int count = Math.min(REFERENCES_PER_READ, n - first);
            refs.read(s, from, count, raw -> slice.accept(raw.order(ByteOrder.LITTLE_ENDIAN), from, count));
        }
    }

    /** The collections one decode has read lately, read through its storage. */
    private final class Collections {
        private final Storage storage;
        private final Map<Long, Collection> recent = new Recent<>(COLLECTIONS_KEPT);
        /** The collection the last string came from. */
        private @Nullable Collection last;

        Collections(Storage storage) {
            this.storage = storage;
        }

        Collection at(long address) {
            Collection c = last;
            if (c != null && c.address == address) {
                return c; // strings written together share a collection: no boxed address looked up per string
            }
            c = recent.get(address);
            if (c == null) {
                // the least recently used collection gives up its arrays: a million barcodes' 40 MB of collections
                // pass through a few arrays instead of one each (young garbage that grew the collector's eden)
                Collection spare = null;
                if (recent.size() == COLLECTIONS_KEPT) {
                    Iterator<Collection> eldest = recent.values().iterator();
                    spare = eldest.next();
                    eldest.remove();
                }
                c = read(address, spare);
                recent.put(address, c);
            }
            last = c;
            return c;
        }

        /** The collection at {@code address}, in {@code spare}'s arrays when it has any. */
        private Collection read(long address, @Nullable Collection spare) {
            int header = 8 + lengthSize;
            if (address <= 0 || address > fileSize - header) {
                throw error("a string refers to global heap address " + address + ", outside the file (" + fileSize
                        + " bytes)");
            }
            ByteBuffer h = ByteBuffer.allocate(header).order(ByteOrder.LITTLE_ENDIAN);
            storage.read(address, h, path);
            if (h.getInt(0) != GCOL) {
                throw error("expected a global heap collection (GCOL) at address " + address);
            }
            long size = lengthSize == 8 ? h.getLong(8) : Integer.toUnsignedLong(h.getInt(8));
            if (size < header || size > Integer.MAX_VALUE - 8 || address + size > fileSize) {
                throw error("global heap collection at " + address + " declares " + size
                        + " bytes, which do not fit the file");
            }
            byte[] bytes = spare != null && spare.bytes.length >= size ? spare.bytes : new byte[(int) size];
            storage.read(address, ByteBuffer.wrap(bytes, 0, (int) size), path);
            return new Collection(address, bytes, (int) size, spare);
        }
    }

    /** One global heap collection: its bytes and where each object's data starts. */
    private final class Collection {
        private final long address;
        /** The collection's bytes, from 0 to its size (the array may be longer: it served a larger one). */
        private final byte[] bytes;

        private int[] start;
        private int[] length;

        Collection(long address, byte[] bytes, int size, @Nullable Collection spare) {
            this.address = address;
            this.bytes = bytes;
            this.start = spare != null ? spare.start : new int[64];
            this.length = spare != null ? spare.length : new int[64];
            Arrays.fill(length, 0);
            ByteBuffer b = ByteBuffer.wrap(bytes, 0, size).order(ByteOrder.LITTLE_ENDIAN);
            int pos = 8 + lengthSize;
            int objectHeader = 8 + lengthSize;
            while (pos + objectHeader <= size) {
                int index = Short.toUnsignedInt(b.getShort(pos));
                long objectSize = lengthSize == 8 ? b.getLong(pos + 8) : Integer.toUnsignedLong(b.getInt(pos + 8));
                if (index == 0) {
                    break; // free space: the rest of the collection
                }
                int data = pos + objectHeader;
                if (objectSize < 0 || objectSize > size - data) {
                    throw error("global heap object " + index + " at " + address + " declares " + objectSize
                            + " bytes, past the end of its collection");
                }
                if (index >= start.length) {
                    int grown = Math.max(index + 1, start.length * 2);
                    start = Arrays.copyOf(start, grown);
                    length = Arrays.copyOf(length, grown);
                }
                start[index] = data;
                length[index] = (int) objectSize + 1; // 0 marks an absent object
                pos = data + (int) ((objectSize + 7) & ~7L);
            }
        }

        /** Where object {@code object}'s data starts; an error naming string {@code element} when it is missing. */
        int start(int object, int element) {
            if (object <= 0 || object >= start.length || length[object] == 0) {
                throw error("string " + element + " refers to object " + object
                        + " missing from the global heap collection at " + address);
            }
            return start[object];
        }

        /** The byte length of object {@code object} (present: see {@link #start}). */
        int length(int object) {
            return length[object] - 1;
        }
    }
}

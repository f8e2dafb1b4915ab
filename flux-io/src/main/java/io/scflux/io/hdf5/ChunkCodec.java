/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import com.ning.compress.lzf.ChunkDecoder;
import com.ning.compress.lzf.LZFException;
import com.ning.compress.lzf.util.ChunkDecoderFactory;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Undoes the HDF5 filters anndata files use (gzip, byte shuffle, lzf, fletcher32) on one chunk, in reverse pipeline
 * order and honouring the chunk's filter mask, checking gzip's and fletcher32's checksums. Datasets with any other
 * filter are decoded by jhdf instead.
 */
final class ChunkCodec {

    static final int DEFLATE = 1;
    static final int SHUFFLE = 2;
    static final int FLETCHER32 = 3;
    static final int LZF = 32000;

    private static final ChunkDecoder LZF_DECODER = ChunkDecoderFactory.safeInstance();

    private final int[] ids;
    private final int elementSize;

    ChunkCodec(int[] ids, int elementSize) {
        this.ids = ids.clone();
        this.elementSize = elementSize;
    }

    static boolean supports(int id) {
        return id == DEFLATE || id == SHUFFLE || id == FLETCHER32 || id == LZF;
    }

    boolean isEmpty() {
        return ids.length == 0;
    }

    /** A short name of the pipeline for {@code scflux info}: {@code gzip}, {@code lzf}, {@code gzip+shuffle}... */
    static String describe(int[] ids) {
        if (ids.length == 0) {
            return "none";
        }
        StringBuilder sb = new StringBuilder();
        for (int i = ids.length - 1; i >= 0; i--) {
            String name = switch (ids[i]) {
                case DEFLATE -> "gzip";
                case SHUFFLE -> "shuffle";
                case FLETCHER32 -> "fletcher32";
                case LZF -> "lzf";
                case 32001 -> "blosc";
                case 32004 -> "lz4";
                case 32008 -> "bitshuffle";
                case 32015 -> "zstd";
                default -> "filter" + ids[i];
            };
            sb.append(sb.length() == 0 ? "" : "+").append(name);
        }
        return sb.toString();
    }

    /**
     * Decodes a stored chunk of {@code stored} bytes into {@code chunkBytes} bytes, checking every checksum the
     * pipeline carries: gzip's Adler-32 (the deflate stream is inflated to its end, where zlib checks it) and
     * Fletcher32's. Failures are reported as {@link IllegalStateException}s carrying the reason; the caller adds file,
     * path and chunk.
     */
    byte[] decode(byte[] stored, int mask, int chunkBytes) {
        byte[] data = stored;
        int length = stored.length;
        for (int i = ids.length - 1; i >= 0; i--) {
            if (skipped(mask, i)) {
                continue;
            }
            int expected = bytesBefore(i, mask, chunkBytes);
            switch (ids[i]) {
                case DEFLATE -> {
                    data = inflate(data, length, expected);
                    length = data.length;
                }
                case SHUFFLE -> {
                    data = unshuffle(data, length);
                    length = data.length;
                }
                case FLETCHER32 -> {
                    if (length < 4) {
                        throw new IllegalStateException("fletcher32 chunk shorter than its checksum");
                    }
                    length -= 4;
                    checkFletcher32(data, length);
                }
                case LZF -> {
                    byte[] out = new byte[expected];
                    try {
                        LZF_DECODER.decodeChunk(data, 0, out, 0, expected);
                    } catch (LZFException | RuntimeException e) {
                        throw new IllegalStateException("corrupt lzf chunk: " + e.getMessage(), e);
                    }
                    data = out;
                    length = expected;
                }
                default -> throw new IllegalStateException("filter " + ids[i] + " is not decoded here");
            }
        }
        if (length < chunkBytes) {
            throw new IllegalStateException("chunk decodes to " + length + " bytes, expected " + chunkBytes);
        }
        return data;
    }

    private static boolean skipped(int mask, int filter) {
        return (mask >>> filter & 1) != 0;
    }

    /** The bytes filter {@code filter} was given when the chunk was written: the chunk and the checksums before it. */
    private int bytesBefore(int filter, int mask, int chunkBytes) {
        int bytes = chunkBytes;
        for (int i = 0; i < filter; i++) {
            if (ids[i] == FLETCHER32 && !skipped(mask, i)) {
                bytes += 4;
            }
        }
        return bytes;
    }

    /**
     * Inflates a zlib stream (HDF5's deflate filter) of exactly {@code expected} bytes, to the end of the stream so
     * that its Adler-32 trailer is checked; a stream that ends early, runs longer or is followed by bytes is refused.
     */
    private static byte[] inflate(byte[] in, int length, int expected) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(in, 0, length);
            byte[] out = new byte[expected];
            byte[] beyond = new byte[1];
            int n = 0;
            while (!inflater.finished()) {
                long read = inflater.getBytesRead();
                int k = n < expected ? inflater.inflate(out, n, expected - n) : inflater.inflate(beyond);
                if (n == expected && k > 0) {
                    throw new IllegalStateException("gzip chunk inflates to more than " + expected + " bytes");
                }
                n += k;
                if (k == 0
                        && !inflater.finished()
                        && (inflater.needsInput() || inflater.needsDictionary() || inflater.getBytesRead() == read)) {
                    throw new IllegalStateException("gzip stream cut short: it ends after " + n + " of " + expected
                            + " bytes, before its checksum (Adler-32)");
                }
            }
            if (n < expected) {
                throw new IllegalStateException("gzip chunk inflates to " + n + " bytes, expected " + expected);
            }
            if (inflater.getRemaining() > 0) {
                throw new IllegalStateException(
                        inflater.getRemaining() + " stored bytes follow the end of the gzip" + " stream");
            }
            return out;
        } catch (DataFormatException e) {
            throw new IllegalStateException(
                    "incorrect data check".equals(e.getMessage())
                            ? "gzip checksum (Adler-32) does not match"
                            : "corrupt gzip stream: " + e.getMessage(),
                    e);
        } finally {
            inflater.end();
        }
    }

    /**
     * Checks the Fletcher32 checksum HDF5 stores little-endian after the {@code length} bytes it covers (HDF5's
     * {@code H5_checksum_fletcher32}: big-endian 16-bit words, an odd last byte as the high half of a word), also
     * accepting the byte-swapped form HDF5 before 1.6.3 wrote, as HDF5 does.
     */
    private static void checkFletcher32(byte[] data, int length) {
        int stored = (data[length] & 0xff)
                | (data[length + 1] & 0xff) << 8
                | (data[length + 2] & 0xff) << 16
                | (data[length + 3] & 0xff) << 24;
        int sum = fletcher32(data, length);
        int swapped = (sum & 0x00ff00ff) << 8 | (sum >>> 8) & 0x00ff00ff;
        if (stored != sum && stored != swapped) {
            throw new IllegalStateException("Fletcher32 checksum does not match");
        }
    }

    /** HDF5's {@code H5_checksum_fletcher32} of {@code data[0, length)}. */
    static int fletcher32(byte[] data, int length) {
        int sum1 = 0;
        int sum2 = 0;
        int at = 0;
        int words = length / 2;
        while (words > 0) {
            int run = Math.min(words, 360);
            words -= run;
            for (int w = 0; w < run; w++, at += 2) {
                sum1 += (data[at] & 0xff) << 8 | data[at + 1] & 0xff;
                sum2 += sum1;
            }
            sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
            sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        }
        if (length % 2 != 0) {
            sum1 += (data[at] & 0xff) << 8;
            sum2 += sum1;
            sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
            sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        }
        sum1 = (sum1 & 0xffff) + (sum1 >>> 16);
        sum2 = (sum2 & 0xffff) + (sum2 >>> 16);
        return sum2 << 16 | sum1;
    }

    private byte[] unshuffle(byte[] in, int length) {
        int size = elementSize;
        byte[] out = new byte[length];
        int count = length / size;
        for (int b = 0; b < size; b++) {
            int base = b * count;
            for (int e = 0; e < count; e++) {
                out[e * size + b] = in[base + e];
            }
        }
        int tail = count * size;
        System.arraycopy(in, tail, out, tail, length - tail);
        return out;
    }
}

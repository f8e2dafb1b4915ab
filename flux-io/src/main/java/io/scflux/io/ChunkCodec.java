package io.scflux.io;

import com.ning.compress.lzf.ChunkDecoder;
import com.ning.compress.lzf.LZFException;
import com.ning.compress.lzf.util.ChunkDecoderFactory;
import java.util.zip.DataFormatException;
import java.util.zip.Inflater;

/**
 * Undoes the HDF5 filters anndata files use (gzip, byte shuffle, lzf, fletcher32) on one chunk, in reverse pipeline
 * order and honouring the chunk's filter mask. Datasets with any other filter are decoded by jhdf instead.
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
     * Decodes a stored chunk of {@code stored} bytes into {@code chunkBytes} bytes. Failures are reported as
     * {@link IllegalStateException}s carrying the reason; the caller adds file and path.
     */
    byte[] decode(byte[] stored, int mask, int chunkBytes) {
        byte[] data = stored;
        int length = stored.length;
        for (int i = ids.length - 1; i >= 0; i--) {
            if ((mask >>> i & 1) != 0) {
                continue;
            }
            switch (ids[i]) {
                case DEFLATE -> {
                    data = inflate(data, length, chunkBytes);
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
                }
                case LZF -> {
                    byte[] out = new byte[chunkBytes];
                    try {
                        LZF_DECODER.decodeChunk(data, 0, out, 0, chunkBytes);
                    } catch (LZFException | RuntimeException e) {
                        throw new IllegalStateException("corrupt lzf chunk: " + e.getMessage(), e);
                    }
                    data = out;
                    length = chunkBytes;
                }
                default -> throw new IllegalStateException("filter " + ids[i] + " is not decoded here");
            }
        }
        if (length < chunkBytes) {
            throw new IllegalStateException("chunk decodes to " + length + " bytes, expected " + chunkBytes);
        }
        return data;
    }

    private static byte[] inflate(byte[] in, int length, int expected) {
        Inflater inflater = new Inflater();
        try {
            inflater.setInput(in, 0, length);
            byte[] out = new byte[expected];
            int n = 0;
            while (n < expected && !inflater.finished()) {
                int k = inflater.inflate(out, n, expected - n);
                if (k == 0 && (inflater.needsInput() || inflater.needsDictionary())) {
                    break;
                }
                n += k;
            }
            if (n < expected) {
                throw new IllegalStateException("gzip chunk inflates to " + n + " bytes, expected " + expected);
            }
            return out;
        } catch (DataFormatException e) {
            throw new IllegalStateException("corrupt gzip chunk: " + e.getMessage(), e);
        } finally {
            inflater.end();
        }
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

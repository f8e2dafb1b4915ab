/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.io.hdf5;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.jhdf.HdfFile;
import io.scflux.core.PlanTarget;
import io.scflux.core.ScfluxFormatException;
import io.scflux.core.anndata.AnnData;
import io.scflux.core.anndata.ArrayColumn;
import io.scflux.core.anndata.CsrMatrix;
import io.scflux.core.anndata.DenseArray;
import io.scflux.core.anndata.Frame;
import io.scflux.core.test.Matrices;
import io.scflux.io.Fixtures;
import io.scflux.io.H5ad;
import io.scflux.io.PythonProbe;
import io.scflux.io.WriteOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.SplittableRandom;
import java.util.function.Function;
import java.util.stream.Stream;
import java.util.zip.Deflater;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every checksum a chunk carries is checked: gzip's Adler-32 (the deflate stream is inflated to its end) and
 * Fletcher32. Seeded damages to the stored chunks of X's values, in the deflate stream and in its trailer, are each
 * refused with the file, dataset and chunk named, or decode to exactly the values written; none is laundered.
 */
@Timeout(300)
class ChunkChecksumTest {

    private static final int DAMAGES = 40;
    private static final int ROWS = 4000;
    private static final int COLS = 400;

    @TempDir
    Path tmp;

    private static byte[] zlib(byte[] data) {
        Deflater deflater = new Deflater(6);
        deflater.setInput(data);
        deflater.finish();
        byte[] out = new byte[data.length + 64];
        int n = deflater.deflate(out);
        deflater.end();
        return Arrays.copyOf(out, n);
    }

    @Test
    void aGzipChunkIsInflatedToTheEndOfItsStream() {
        byte[] chunk = new byte[4000];
        for (int i = 0; i < chunk.length; i++) {
            chunk[i] = (byte) (i * 31 % 7);
        }
        byte[] stored = zlib(chunk);
        ChunkCodec gzip = new ChunkCodec(new int[] {ChunkCodec.DEFLATE}, 4);
        assertArrayEquals(chunk, gzip.decode(stored, 0, chunk.length));
        byte[] trailer = stored.clone();
        trailer[trailer.length - 1] ^= 1;
        assertEquals("gzip checksum (Adler-32) does not match", refusal(gzip, trailer, chunk.length));
        assertEquals(
                "1 stored bytes follow the end of the gzip stream",
                refusal(gzip, Arrays.copyOf(stored, stored.length + 1), chunk.length));
        assertEquals(
                "gzip stream cut short: it ends after 4000 of 4000 bytes, before its checksum (Adler-32)",
                refusal(gzip, Arrays.copyOf(stored, stored.length - 2), chunk.length));
        assertEquals("gzip chunk inflates to more than 3996 bytes", refusal(gzip, stored, chunk.length - 4));
        assertEquals("gzip chunk inflates to 4000 bytes, expected 4004", refusal(gzip, stored, chunk.length + 4));
    }

    private static String refusal(ChunkCodec codec, byte[] stored, int chunkBytes) {
        return assertThrows(IllegalStateException.class, () -> codec.decode(stored, 0, chunkBytes))
                .getMessage();
    }

    /** A file whose X values lie in gzip chunks, the values written, and how X is read back. */
    private record Case(String name, Path file, String dataset, CsrMatrix written, Function<Path, CsrMatrix> read) {
        @Override
        public String toString() {
            return name;
        }
    }

    static Stream<Arguments> cases() {
        return Stream.of(
                Arguments.of("h5ad gzip (scflux)"),
                Arguments.of("Cell Ranger gzip (scflux)"),
                Arguments.of("h5ad gzip+shuffle+fletcher32 (h5py)"));
    }

    private Case make(String name) throws IOException {
        CsrMatrix counts = Matrices.random(ROWS, COLS, 0.3, 32);
        WriteOptions gzip = WriteOptions.DEFAULT.withCompression(WriteOptions.Compression.GZIP);
        Function<Path, CsrMatrix> x = f -> Fixtures.collect(H5ad.openMatrix(f, "/X"), PlanTarget.ofChunkNnz(20_000), 2);
        if (name.startsWith("h5ad gzip (")) {
            Path file = tmp.resolve("x.h5ad");
            H5ad.write(AnnData.of(counts), file, gzip).block();
            return new Case(name, file, "/X/data", counts, x);
        }
        if (name.startsWith("Cell Ranger")) {
            Path file = tmp.resolve("filtered_feature_bc_matrix.h5");
            String[] genes = new String[COLS];
            String[] cells = new String[ROWS];
            Arrays.setAll(genes, g -> "gene" + g);
            Arrays.setAll(cells, c -> "cell" + c + "-1");
            Frame var = new Frame(genes, null);
            var.put("gene_ids", new ArrayColumn(DenseArray.of(genes)));
            H5ad.writeCellRanger(new AnnData(counts, new Frame(cells, null), var), file, gzip)
                    .block();
            return new Case(
                    name,
                    file,
                    "/matrix/data",
                    counts,
                    f -> Fixtures.collect(H5ad.read(f).x(), PlanTarget.ofChunkNnz(20_000), 2));
        }
        return fletcher32File(name);
    }

    /** X of 600 x 50, every entry stored, value {@code 1 + (k * 7919 % 97) / 4} for entry k, written by h5py. */
    private Case fletcher32File(String name) throws IOException {
        PythonProbe.assumeModule("h5py");
        Path file = tmp.resolve("fletcher.h5ad");
        PythonProbe.json(FLETCHER_SCRIPT, file);
        CsrMatrix.Builder b = CsrMatrix.builder(50);
        int[] idx = new int[50];
        Arrays.setAll(idx, c -> c);
        for (int r = 0; r < 600; r++) {
            float[] v = new float[50];
            for (int c = 0; c < 50; c++) {
                long k = r * 50L + c;
                v[c] = 1 + (float) (k * 7919 % 97) / 4;
            }
            b.addRow(idx.clone(), v);
        }
        return new Case(
                name,
                file,
                "/X/data",
                b.build(),
                f -> Fixtures.collect(H5ad.openMatrix(f, "/X"), PlanTarget.ofChunkNnz(20_000), 2));
    }

    private static final String FLETCHER_SCRIPT = """
            import sys, h5py, numpy as np
            rows, cols = 600, 50
            k = np.arange(rows * cols, dtype=np.int64)
            kw = dict(compression='gzip', shuffle=True, fletcher32=True, chunks=(4096,))
            with h5py.File(sys.argv[1], 'w') as f:
                g = f.create_group('X')
                g.attrs['encoding-type'] = 'csr_matrix'
                g.attrs['encoding-version'] = '0.1.0'
                g.attrs['shape'] = np.array([rows, cols], dtype=np.int64)
                g.create_dataset('data', data=(1 + (k * 7919 % 97) / 4).astype(np.float32), **kw)
                g.create_dataset('indices', data=(k % cols).astype(np.int32), **kw)
                g.create_dataset('indptr', data=np.arange(rows + 1, dtype=np.int64) * cols, **dict(kw, chunks=(256,)))
                f.create_dataset('odd', data=(np.arange(3001) * 37 % 251).astype(np.uint8), chunks=(1001,),
                                 fletcher32=True)
            print('{}')
            """;

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void everySeededDamageIsRefusedOrDecodesExactly(String name) throws IOException {
        Case c = make(name);
        Matrices.assertSame(c.written, c.read.apply(c.file));
        byte[] original = Files.readAllBytes(c.file);
        long[] address;
        int[] stored;
        try (HdfFile hdf = new HdfFile(c.file)) {
            StoredArray data = StoredArray.of(hdf.getDatasetByPath(c.dataset), hdf.size());
            int chunks = Math.toIntExact(data.chunkGrid()[0]);
            address = new long[chunks];
            stored = new int[chunks];
            for (int i = 0; i < chunks; i++) {
                address[i] = data.chunkAddress(i);
                stored[i] = data.chunkStoredBytes(i);
            }
        }
        assertTrue(address.length > 1, "X's values lie in several chunks");
        SplittableRandom rnd = new SplittableRandom(name.hashCode());
        int refused = 0;
        for (int d = 0; d < DAMAGES; d++) {
            int chunk = rnd.nextInt(address.length);
            boolean trailer = d % 2 == 0;
            int at = trailer ? stored[chunk] - 1 - rnd.nextInt(4) : rnd.nextInt(stored[chunk]);
            byte[] damaged = original.clone();
            damaged[Math.toIntExact(address[chunk] + at)] ^= (byte) (1 << rnd.nextInt(8));
            Path file = c.file.resolveSibling("damaged-" + d + "-" + c.file.getFileName());
            Files.write(file, damaged);
            String damage = "damage " + d + ": a bit of chunk " + chunk + "'s byte " + at + " of " + stored[chunk];
            CsrMatrix got;
            try {
                got = c.read.apply(file);
            } catch (ScfluxFormatException e) {
                String where = file + ": " + c.dataset + ": chunk " + chunk + " at byte " + address[chunk] + ": ";
                assertTrue(e.getMessage().startsWith(where), damage + ": " + e.getMessage());
                if (trailer) {
                    assertTrue(e.getMessage().contains("checksum"), damage + ": " + e.getMessage());
                }
                refused++;
                continue;
            } finally {
                Files.delete(file);
            }
            if (trailer) {
                fail(damage + ", in the trailer, was accepted");
            }
            Matrices.assertSame(c.written, got);
        }
        assertTrue(refused >= DAMAGES / 2, refused + " of " + DAMAGES + " damages refused");
    }

    @Test
    void aDamagedGzipTrailerIsRefusedByName() throws IOException {
        Case c = make("h5ad gzip (scflux)");
        byte[] bytes = Files.readAllBytes(c.file);
        long address;
        int stored;
        try (HdfFile hdf = new HdfFile(c.file)) {
            StoredArray data = StoredArray.of(hdf.getDatasetByPath("/X/data"), hdf.size());
            address = data.chunkAddress(1);
            stored = data.chunkStoredBytes(1);
        }
        bytes[Math.toIntExact(address + stored - 1)] ^= 0x10;
        Files.write(c.file, bytes);
        ScfluxFormatException e = assertThrows(ScfluxFormatException.class, () -> c.read.apply(c.file));
        assertEquals(
                c.file + ": /X/data: chunk 1 at byte " + address + ": gzip checksum (Adler-32) does not match",
                e.getMessage());
    }

    @Test
    void fletcher32OfAnOddLengthIsHdf5s() throws IOException {
        Case c = make("h5ad gzip+shuffle+fletcher32 (h5py)");
        byte[] expected = new byte[3001];
        for (int i = 0; i < expected.length; i++) {
            expected[i] = (byte) (i * 37 % 251);
        }
        byte[] bytes = Files.readAllBytes(c.file);
        long address;
        try (HdfFile hdf = new HdfFile(c.file)) {
            assertArrayEquals(
                    expected,
                    (byte[]) ArrayReader.read(hdf.getDatasetByPath("/odd")).data(),
                    "1001-byte chunks, checksums as HDF5 computed them");
            address = StoredArray.of(hdf.getDatasetByPath("/odd"), hdf.size()).chunkAddress(2);
        }
        bytes[Math.toIntExact(address + 500)] ^= 4;
        Files.write(c.file, bytes);
        try (HdfFile hdf = new HdfFile(c.file)) {
            ScfluxFormatException e =
                    assertThrows(ScfluxFormatException.class, () -> ArrayReader.read(hdf.getDatasetByPath("/odd")));
            assertEquals(
                    c.file + ": /odd: chunk 2 at byte " + address + ": Fletcher32 checksum does not match",
                    e.getMessage());
        }
    }
}

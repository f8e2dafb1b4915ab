/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.test.TestFixtures;
import java.io.IOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --in-place} rewrites the input through the atomic writer; {@code -o} naming the input itself, in any
 * spelling or through a link, is a usage error that leaves it untouched.
 */
class InPlaceTest {

    @org.junit.jupiter.api.io.TempDir
    Path tmp;

    private Path in;
    private byte[] original;

    @BeforeEach
    void copyInput() throws IOException {
        in = tmp.resolve("in.h5ad");
        Files.copy(TestFixtures.path("synth-3k-b.h5ad"), in);
        original = Files.readAllBytes(in);
    }

    @Test
    void rewritesTheInputAndLeavesNothingElse() throws IOException {
        Cli c = Cli.run("qc", in.toString(), "--qc-var", "mt=MT-", "--in-place");
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(in);
        assertTrue(a.obs().has("total_counts") && a.var().has("mt"), "the result is in the input's place");
        assertEquals(List.of(in), files(), "no temporary file left beside it");
        Cli again = Cli.run("log1p", in.toString(), "--in-place");
        assertEquals(0, again.exitCode(), again.err());
        assertTrue(H5ad.read(in).uns().containsKey("log1p"));
    }

    /**
     * The rewritten file keeps the input's mode, owner and group: a 0600 file of uid and gid 1000 came back 0644
     * root:root, readable by all. Changing the owner needs root (as CI); elsewhere the test skips, saying so.
     */
    @Test
    void inPlaceKeepsModeOwnerAndGroup() throws IOException {
        assumeTrue(FileSystems.getDefault().supportedFileAttributeViews().contains("unix"), "no unix attributes");
        Files.setPosixFilePermissions(in, PosixFilePermissions.fromString("rw-------"));
        try {
            Files.setAttribute(in, "unix:uid", 1000);
            Files.setAttribute(in, "unix:gid", 1000);
        } catch (IOException e) {
            assumeTrue(false, "cannot give the input to uid 1000 (not root): " + e.getMessage());
        }
        Map<String, Object> before = Files.readAttributes(in, "unix:mode,uid,gid");
        Cli c = Cli.run("qc", in.toString(), "--in-place");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(H5ad.read(in).obs().has("total_counts"), "rewritten");
        Map<String, Object> after = Files.readAttributes(in, "unix:mode,uid,gid");
        System.out.println("InPlaceTest: before " + before + ", after " + after);
        assertEquals(0100600, after.get("mode"), "still a regular file of mode 0600");
        assertEquals(1000, after.get("uid"));
        assertEquals(1000, after.get("gid"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"in.h5ad", "./in.h5ad", "sub/../in.h5ad", "link.h5ad", "hard.h5ad"})
    void outputNamingTheInputIsRefused(String spelling) throws IOException {
        Files.createDirectory(tmp.resolve("sub"));
        Files.createSymbolicLink(tmp.resolve("link.h5ad"), in);
        Files.createLink(tmp.resolve("hard.h5ad"), in);
        Cli c = Cli.run("normalize", in.toString(), "-o", tmp.resolve(spelling).toString());
        assertEquals(2, c.exitCode(), c.err());
        assertTrue(c.err().contains("is the input " + in + " itself"), c.err());
        assertArrayEquals(original, Files.readAllBytes(in), "the input is untouched");
    }

    @Test
    void inPlaceThroughASymbolicLinkRewritesTheFileNotTheLink() throws IOException {
        Path link = tmp.resolve("link.h5ad");
        Files.createSymbolicLink(link, in);
        Cli c = Cli.run("log1p", link.toString(), "--in-place");
        assertEquals(0, c.exitCode(), c.err());
        assertTrue(Files.isSymbolicLink(link), "the link stays a link");
        assertTrue(H5ad.read(in).uns().containsKey("log1p"), "the file it names was rewritten");
    }

    @Test
    void outputAndInPlaceAreOneOrTheOther() throws IOException {
        assertEquals(2, Cli.run("log1p", in.toString()).exitCode());
        assertEquals(
                2,
                Cli.run(
                                "log1p",
                                in.toString(),
                                "--in-place",
                                "-o",
                                tmp.resolve("o.h5ad").toString())
                        .exitCode());
        Cli dropping = Cli.run("qc", in.toString(), "--in-place", "--annotations-only");
        assertEquals(2, dropping.exitCode(), dropping.err());
        assertArrayEquals(original, Files.readAllBytes(in), "the input keeps its matrix");
    }

    @Test
    void concatRefusesToWriteOverOneOfItsInputs() throws IOException {
        Path other = tmp.resolve("other.h5ad");
        Files.copy(in, other);
        Cli c = Cli.run("concat", in.toString(), other.toString(), "-o", other.toString());
        assertEquals(2, c.exitCode(), c.err());
        assertArrayEquals(original, Files.readAllBytes(other));
    }

    @Test
    void annotationsOnlyWritesNoMatrix() {
        Path out = tmp.resolve("ann.h5ad");
        Cli c = Cli.run("qc", in.toString(), "--annotations-only", "-o", out.toString());
        assertEquals(0, c.exitCode(), c.err());
        AnnData a = H5ad.read(out);
        assertEquals(null, a.x());
        assertEquals(1000, a.nObs());
        assertTrue(a.obs().has("n_genes_by_counts"));
    }

    private List<Path> files() throws IOException {
        try (Stream<Path> s = Files.list(tmp)) {
            return s.filter(p -> !Files.isDirectory(p)).sorted().toList();
        }
    }
}

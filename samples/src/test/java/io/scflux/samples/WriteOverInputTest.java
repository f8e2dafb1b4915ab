/*
 * Copyright 2026 the scflux authors
 * SPDX-License-Identifier: Apache-2.0
 */
package io.scflux.samples;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.scflux.core.Streaming;
import io.scflux.core.anndata.AnnData;
import io.scflux.io.H5ad;
import io.scflux.io.WriteOptions;
import io.scflux.io.test.TestFixtures;
import io.scflux.ops.Pp;
import io.scflux.ops.concat.Concat;
import io.scflux.ops.concat.ConcatOptions;
import io.scflux.ops.normalize.NormalizeTotalOptions;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import reactor.core.publisher.Mono;

/**
 * No entry point of the Java API writes over a file the data being written still reads from, whatever the spelling
 * of the target: each writer x each spelling is refused with an {@link IllegalArgumentException} naming both files,
 * before anything is written, and the input's bytes are what they were. Rewriting a file on purpose is
 * {@link H5ad#writeInPlace}.
 */
class WriteOverInputTest {

    @TempDir
    Path dir;

    /** What is written, from a container over {@code input}, to {@code target}. */
    enum Writer {
        /** {@code H5ad.write} of the file's own container. */
        H5AD(in -> Mono.just(H5ad.read(in)), false),
        /** {@code H5ad.write} of a normalized view over the file's counts. */
        NORMALIZED_VIEW(
                in -> Pp.normalizeTotal(H5ad.read(in), NormalizeTotalOptions.defaults(), Streaming.DEFAULT), false),
        /** {@code H5ad.writeCellRanger} of a Cell Ranger file's own counts. */
        CELL_RANGER(in -> Mono.just(H5ad.read(in)), true),
        /** {@code H5ad.write} of a concatenation whose second input is the file. */
        CONCAT(
                in -> Mono.just(Concat.concat(
                        List.of(H5ad.read(TestFixtures.path("synth-3k-b.h5ad")), H5ad.read(in)),
                        ConcatOptions.defaults())),
                false);

        final Function<Path, Mono<AnnData>> data;
        final boolean cellRanger;

        Writer(Function<Path, Mono<AnnData>> data, boolean cellRanger) {
            this.data = data;
            this.cellRanger = cellRanger;
        }

        Mono<Void> write(AnnData a, Path target) {
            return cellRanger
                    ? H5ad.writeCellRanger(a, target, WriteOptions.DEFAULT)
                    : H5ad.write(a, target, WriteOptions.DEFAULT);
        }
    }

    /** How the target names the input. */
    enum Spelling {
        SAME_PATH,
        SYMBOLIC_LINK,
        HARD_LINK,
        DOTTED_PATH
    }

    @ParameterizedTest
    @EnumSource(Writer.class)
    void everySpellingOfTheInputIsRefused(Writer writer) throws IOException {
        for (Spelling spelling : Spelling.values()) {
            Path input = dir.resolve(spelling + (writer.cellRanger ? ".h5" : ".h5ad"));
            if (writer.cellRanger) {
                H5ad.writeCellRanger(H5ad.read(TestFixtures.path("synth-3k-b.h5ad")), input, WriteOptions.DEFAULT)
                        .block();
                assertTrue(H5ad.isCellRanger(input), "the input is a Cell Ranger file");
            } else {
                Files.copy(TestFixtures.path("synth-3k-b.h5ad"), input);
            }
            byte[] before = Files.readAllBytes(input);
            Path target = switch (spelling) {
                case SAME_PATH -> input;
                case SYMBOLIC_LINK -> Files.createSymbolicLink(dir.resolve("link-" + input.getFileName()), input);
                case HARD_LINK -> Files.createLink(dir.resolve("hard-" + input.getFileName()), input);
                case DOTTED_PATH -> dir.resolve(".").resolve(input.getFileName());
            };
            Mono<Void> write = writer.data.apply(input).flatMap(a -> writer.write(a, target));
            IllegalArgumentException e =
                    assertThrows(IllegalArgumentException.class, write::block, writer + " to " + spelling);
            assertTrue(
                    e.getMessage().contains(target.toString())
                            && e.getMessage().contains(input.getFileName().toString()),
                    writer + " to " + spelling + ": the message names both files: " + e.getMessage());
            assertArrayEquals(before, Files.readAllBytes(input), writer + " to " + spelling + ": the input unchanged");
        }
        try (var left = Files.list(dir)) {
            assertEquals(
                    0,
                    left.filter(p -> p.getFileName().toString().contains("tmp")).count(),
                    "no temporary file was made");
        }
    }
}

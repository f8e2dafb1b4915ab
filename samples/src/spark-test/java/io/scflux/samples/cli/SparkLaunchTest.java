package io.scflux.samples.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Where {@code java -jar scflux-spark.jar} finds its Spark home: found on the machine it runs on, not baked in. */
class SparkLaunchTest {

    private static final Path JAR = Path.of("/opt/scflux/lib/scflux-spark.jar");

    @Test
    void sparkHomeOfTheEnvironmentComesFirst() {
        assertEquals(Path.of("/opt/spark-4.0.1"), SparkLaunch.sparkHome(Map.of("SPARK_HOME", "/opt/spark-4.0.1"), JAR));
    }

    @Test
    void withoutSparkHomeTheOneBesideTheJarIsUsed() {
        assertEquals(Path.of("/opt/scflux/lib/spark-home"), SparkLaunch.sparkHome(Map.of(), JAR));
        assertEquals(Path.of("/opt/scflux/lib/spark-home"), SparkLaunch.sparkHome(Map.of("SPARK_HOME", ""), JAR));
    }

    @Test
    void aRelativeJarIsResolvedFromTheWorkingFolder() {
        assertEquals(Path.of("scflux-spark.jar").toAbsolutePath().resolveSibling("spark-home"),
                SparkLaunch.sparkHome(Map.of(), Path.of("scflux-spark.jar")));
    }
}

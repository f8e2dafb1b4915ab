package io.scflux.samples.cli;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The main class of {@code scflux-spark.jar} run with {@code java -jar}: runs {@link Scflux} with a Spark home's jars
 * on the class path, so that {@code --engine spark} works in local mode without spark-submit. The Spark home is found
 * where this run's machine has it ({@link #sparkHome}), never at a path of the machine that built the jar. The jar
 * leaves out what Spark ships (jackson, netty, slf4j): Spark's copies are the ones both run on.
 */
public final class SparkLaunch {

    /** The Spark home looked for beside the jar when {@code SPARK_HOME} is unset. */
    static final String BESIDE = "spark-home";

    private SparkLaunch() {
    }

    public static void main(String[] args) throws Exception {
        Path jar = Path.of(SparkLaunch.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path jars = sparkHome(System.getenv(), jar).resolve("jars");
        List<URL> urls = new ArrayList<>();
        urls.add(jar.toUri().toURL());
        try (Stream<Path> all = Files.list(jars)) {
            for (Path p : all.filter(p -> p.toString().endsWith(".jar")).sorted().toList()) {
                urls.add(p.toUri().toURL());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("no Spark jars in " + jars + ": set SPARK_HOME to a Spark 4.0 "
                    + "installation, or put one as " + BESIDE + " beside " + jar.getFileName()
                    + " (mvn -Pspark package links the one it builds there)", e);
        }
        ClassLoader loader = new URLClassLoader(urls.toArray(URL[]::new), ClassLoader.getPlatformClassLoader());
        Thread.currentThread().setContextClassLoader(loader);
        try {
            loader.loadClass(Scflux.class.getName()).getMethod("main", String[].class).invoke(null, (Object) args);
        } catch (InvocationTargetException e) {
            throw e.getCause() instanceof Exception x ? x : e;
        }
    }

    /**
     * {@code $SPARK_HOME} of {@code env}, else the folder {@value #BESIDE} beside {@code jar} (a link to the Spark home
     * that {@code mvn -Pspark package} builds, in a checkout).
     */
    static Path sparkHome(Map<String, String> env, Path jar) {
        String home = env.get("SPARK_HOME");
        if (home != null && !home.isEmpty()) {
            return Path.of(home);
        }
        return jar.toAbsolutePath().resolveSibling(BESIDE);
    }
}

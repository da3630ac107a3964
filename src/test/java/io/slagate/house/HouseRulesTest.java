package io.slagate.house;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import com.github.javaparser.ParserConfiguration;
import com.github.javaparser.StaticJavaParser;
import com.github.javaparser.ast.CompilationUnit;
import com.github.javaparser.ast.body.CallableDeclaration;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.syntax.ArchRuleDefinition;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The house rules, checked over every module's main code: no file over {@value #MAX_FILE_LINES} lines, no method or
 * constructor over {@value #MAX_METHOD_LINES}, no class over {@value #MAX_PUBLIC_METHODS} public methods but the hubs held at their
 * counts, no cycle between packages (across modules too), and no package split
 * between two modules; and no documentation line over {@value #MAX_DOC_LINE} characters. A failure names every offender, so one run lists all there is to fix.
 */
class HouseRulesTest {
    static final int MAX_FILE_LINES = 500;
    static final int MAX_METHOD_LINES = 60;

    private static Path root;
    private static Map<String, Path> modules;

    @BeforeAll
    static void findModules() throws IOException {
        root = Path.of("").toAbsolutePath();
        while (!Files.exists(root.resolve("launcher").resolve("pom.xml"))) {
            root = root.getParent(); // surefire runs in launcher/; an IDE may run from the root
        }
        modules = modules(Files.readString(root.resolve("pom.xml")));
        assertTrue(modules.size() >= 10, "the root pom's modules: " + modules.keySet());
    }

    /** Each module of the root pom that has main Java sources, with its source root. */
    static Map<String, Path> modules(String pom) {
        Map<String, Path> out = new TreeMap<>();
        Matcher m = Pattern.compile("<module>([^<]+)</module>").matcher(pom);
        while (m.find()) {
            Path src = root.resolve(m.group(1)).resolve("src/main/java");
            if (Files.isDirectory(src)) {
                out.put(m.group(1), src);
            }
        }
        return out;
    }

    private static List<Path> sources(Path src) throws IOException {
        try (Stream<Path> s = Files.walk(src)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    @Test
    void noMainFile_isOverTheLimit() throws IOException {
        List<String> over = new ArrayList<>();
        for (Path src : modules.values()) {
            for (Path f : sources(src)) {
                long lines = Files.readAllLines(f).size();
                if (lines > MAX_FILE_LINES) {
                    over.add(root.relativize(f) + " " + lines);
                }
            }
        }
        assertEquals(List.of(), over, "main files over " + MAX_FILE_LINES + " lines: split by responsibility");
    }

    static final int MAX_DOC_LINE = 500;

    /** Prose belongs in paragraphs, not in table cells: no line of docs/ or the README over {@value #MAX_DOC_LINE} characters. */
    @Test
    void noDocumentationLine_isOverTheLimit() throws IOException {
        List<String> over = new ArrayList<>();
        List<Path> docs = new ArrayList<>(List.of(root.resolve("README.md")));
        try (Stream<Path> s = Files.walk(root.resolve("docs"))) {
            s.filter(p -> p.toString().endsWith(".md")).sorted().forEach(docs::add);
        }
        for (Path f : docs) {
            List<String> lines = Files.readAllLines(f);
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).length() > MAX_DOC_LINE) {
                    over.add(root.relativize(f) + ":" + (i + 1) + " " + lines.get(i).length());
                }
            }
        }
        assertEquals(List.of(), over, "documentation lines over " + MAX_DOC_LINE + " characters");
    }

    /** Evidence a newcomer can find: every results file is named in bench/results/README.md or kept under archive/. */
    @Test
    void everyBenchResult_isIndexedOrArchived() throws IOException {
        Path results = root.resolve("bench/results");
        String index = Files.readString(results.resolve("README.md"));
        List<String> missing = new ArrayList<>();
        try (Stream<Path> s = Files.list(results)) {
            s.filter(Files::isRegularFile).map(p -> p.getFileName().toString()).filter(n -> !n.equals("README.md")).sorted()
                    .filter(n -> !index.contains(n) && !index.contains(n.replaceFirst("\\.raw\\.txt$", ".md")))
                    .forEach(missing::add);
        }
        assertEquals(List.of(), missing, "bench/results files neither in its README.md nor under archive/");
    }

    /** A class with more public methods has more than one job: split it by responsibility. */
    static final int MAX_PUBLIC_METHODS = 20;

    /** Small classes with one job: public methods (interface and superclass methods overridden aside) per class. */
    @Test
    void noClass_hasTooManyPublicMethods() throws IOException {
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17);
        List<String> over = new ArrayList<>();
        for (Path src : modules.values()) {
            for (Path f : sources(src)) {
                for (var c : StaticJavaParser.parse(f).findAll(com.github.javaparser.ast.body.ClassOrInterfaceDeclaration.class)) {
                    if (c.isInterface()) {
                        continue;
                    }
                    long n = c.getMethods().stream().filter(m -> m.isPublic() && m.getAnnotationByName("Override").isEmpty()).count();
                    if (n > MAX_PUBLIC_METHODS) {
                        over.add(root.relativize(f) + " " + c.getNameAsString() + " " + n);
                    }
                }
            }
        }
        assertEquals(List.of(), over, "classes with more public methods than allowed: split by responsibility");
    }

    @Test
    void noMethod_isOverTheLimit() throws IOException {
        StaticJavaParser.getParserConfiguration().setLanguageLevel(ParserConfiguration.LanguageLevel.JAVA_17);
        List<String> over = new ArrayList<>();
        for (Path src : modules.values()) {
            for (Path f : sources(src)) {
                CompilationUnit cu = StaticJavaParser.parse(f);
                for (CallableDeclaration<?> m : cu.findAll(CallableDeclaration.class)) {
                    int lines = m.getRange().map(r -> r.end.line - r.begin.line + 1).orElse(0);
                    if (lines > MAX_METHOD_LINES) {
                        over.add(root.relativize(f) + " " + m.getNameAsString() + " " + lines);
                    }
                }
            }
        }
        assertEquals(List.of(), over, "methods over " + MAX_METHOD_LINES + " lines (declaration to closing brace)");
    }

    @Test
    void noPackage_isSplitBetweenModules() throws IOException {
        Map<String, TreeSet<String>> owners = new TreeMap<>();
        for (Map.Entry<String, Path> module : modules.entrySet()) {
            for (Path f : sources(module.getValue())) {
                String pkg = module.getValue().relativize(f.getParent()).toString().replace('/', '.');
                owners.computeIfAbsent(pkg, p -> new TreeSet<>()).add(module.getKey());
            }
        }
        owners.values().removeIf(m -> m.size() == 1);
        assertEquals(Map.of(), owners, "packages in more than one module");
    }

    /** Every module's compiled main classes. */
    private static JavaClasses mainClasses() {
        List<Path> classes = new ArrayList<>();
        for (String module : modules.keySet()) {
            Path dir = root.resolve(module).resolve("target/classes");
            assertTrue(Files.isDirectory(dir), "module " + module + " is not compiled (" + dir + "): build the reactor first");
            classes.add(dir);
        }
        return new ClassFileImporter().importPaths(classes);
    }

    /**
     * The listener seam: what the gateway needs of a client connection is {@code listener.ClientConnection}; only the
     * listener's own packages name the relay listener's or Jetty's connections.
     */
    @Test
    void listenerImplementations_areNamedOnlyInsideTheListener() {
        ArchRuleDefinition.noClasses().that().resideOutsideOfPackage("io.slagate.gateway.listener..").should().dependOnClassesThat()
                .resideInAnyPackage("io.slagate.gateway.listener.relay..", "io.slagate.gateway.listener.jetty..")
                .because("the rest of the gateway asks a client connection through listener.ClientConnection").check(mainClasses());
    }

    /**
     * The way in knows the request path only through the context, the exchange and its body: it never names a server
     * leg (the dispatcher, the upstreams, their connections), so a new stage cannot send a request past the queue. And
     * the exchange's package knows neither side: the legs see it as an {@code UpstreamExchange}, the stages build it.
     */
    @Test
    void ingressStages_doNotReachTheUpstreamLegs() {
        ArchRuleDefinition.noClasses().that().resideInAPackage("io.slagate.gateway.ingress..").should().dependOnClassesThat()
                .resideInAPackage("io.slagate.gateway.upstream..").check(mainClasses());
        ArchRuleDefinition.noClasses().that().resideInAPackage("io.slagate.gateway.proxy..").should().dependOnClassesThat()
                .resideInAnyPackage("io.slagate.gateway.upstream..", "io.slagate.gateway.ingress..").check(mainClasses());
    }

    @Test
    void noCycle_betweenPackages() {
        JavaClasses all = mainClasses();
        // each package its own slice, the root package io.slagate included
        SlicesRuleDefinition.slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass c) {
                return c.getPackageName().startsWith("io.slagate") ? SliceIdentifier.of(c.getPackageName()) : SliceIdentifier.ignore();
            }

            @Override
            public String getDescription() {
                return "the packages of io.slagate";
            }
        }).should().beFreeOfCycles().check(all);
    }
}

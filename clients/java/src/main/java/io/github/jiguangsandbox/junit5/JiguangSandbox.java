package io.github.jiguangsandbox.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives the annotated tests the sandbox: a {@link io.github.jiguangsandbox.SandboxClient} parameter
 * is a fresh app of the test's own, a {@link io.github.jiguangsandbox.SandboxServer} parameter the
 * run's sandbox. The same as {@code @ExtendWith(JiguangSandboxExtension.class)}.
 *
 * <pre>{@code
 * @JiguangSandbox
 * class SignUpTest {
 *     @Test
 *     void textsACode(SandboxClient sb) { … sb.latestCode("13800138000", Duration.ofSeconds(5)) … }
 * }
 * }</pre>
 */
@Target({ElementType.TYPE, ElementType.METHOD, ElementType.ANNOTATION_TYPE})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(JiguangSandboxExtension.class)
public @interface JiguangSandbox {}

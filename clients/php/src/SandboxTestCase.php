<?php

declare(strict_types=1);

namespace JiguangSandbox;

use PHPUnit\Framework\TestCase;

/**
 * A TestCase whose every test has an app of its own, `$this->sandbox` (UsesJiguangSandbox): for a
 * suite that would rather extend a class than use the trait.
 */
abstract class SandboxTestCase extends TestCase
{
    use UsesJiguangSandbox;
}

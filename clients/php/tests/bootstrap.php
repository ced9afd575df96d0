<?php

declare(strict_types=1);

// The package's PSR-4 autoloading (composer.json: JiguangSandbox\ => src/), without Composer: the
// tests run on this checkout's sources; ci.sh installs the package through Composer separately.
spl_autoload_register(static function (string $class): void {
    $prefix = 'JiguangSandbox\\';
    if (str_starts_with($class, $prefix)) {
        $file = __DIR__ . '/../src/' . str_replace('\\', '/', substr($class, strlen($prefix))) . '.php';
        if (is_file($file)) {
            require $file;
        }
    }
});
require_once __DIR__ . '/Vendor.php';

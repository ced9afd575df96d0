<?php

declare(strict_types=1);

namespace JiguangSandbox;

// Nothing matching arrived within the wait of a next…() call. Under PHPUnit it is an assertion
// failure (the test fails rather than errors); its message lists what did arrive after the same
// seq, whatever the filter, so the test's log shows what came instead.
if (class_exists(\PHPUnit\Framework\AssertionFailedError::class)) {
    /** @internal the parent of NothingArrived under PHPUnit */
    abstract class NothingArrivedBase extends \PHPUnit\Framework\AssertionFailedError
    {
    }
} else {
    /** @internal the parent of NothingArrived without PHPUnit */
    abstract class NothingArrivedBase extends \RuntimeException
    {
    }
}

final class NothingArrived extends NothingArrivedBase
{
    /**
     * @param array<string, mixed> $filter
     * @param list<string> $arrived one line per item that did arrive, newest first
     */
    public function __construct(
        public readonly string $what,
        public readonly array $filter,
        public readonly int $after,
        public readonly float $waitedSeconds,
        public readonly array $arrived,
    ) {
        $shown = json_encode((object) $filter, JSON_UNESCAPED_UNICODE | JSON_UNESCAPED_SLASHES);
        $lines = [sprintf('no %s matching %s arrived after seq %d within %g s;', $what, $shown, $after, $waitedSeconds)];
        if ($arrived === []) {
            $lines[] = "nothing at all arrived after seq $after";
        } else {
            $lines[] = "what did arrive after seq $after (newest first):";
            foreach ($arrived as $line) {
                $lines[] = "  $line";
            }
        }
        parent::__construct(implode("\n", $lines));
    }
}

<?php

declare(strict_types=1);

namespace JiguangSandbox;

/**
 * A list's items (newest first, each as the wire has it: an array), and nextAfter: the seq to pass
 * as `after` next time to get only what is newer. Counted, iterated and indexed like an array.
 *
 * @implements \IteratorAggregate<int, array<string, mixed>>
 * @implements \ArrayAccess<int, array<string, mixed>>
 */
final class Page implements \IteratorAggregate, \Countable, \ArrayAccess
{
    /** @param list<array<string, mixed>> $items */
    public function __construct(public readonly array $items, public readonly int $nextAfter)
    {
    }

    public function getIterator(): \ArrayIterator
    {
        return new \ArrayIterator($this->items);
    }

    public function count(): int
    {
        return count($this->items);
    }

    public function offsetExists(mixed $offset): bool
    {
        return isset($this->items[$offset]);
    }

    public function offsetGet(mixed $offset): mixed
    {
        return $this->items[$offset] ?? null;
    }

    public function offsetSet(mixed $offset, mixed $value): void
    {
        throw new \LogicException('a page of the sandbox is read only');
    }

    public function offsetUnset(mixed $offset): void
    {
        throw new \LogicException('a page of the sandbox is read only');
    }
}

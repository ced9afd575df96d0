<?php

declare(strict_types=1);

namespace JiguangSandbox\Tests;

use JiguangSandbox\NothingArrived;
use JiguangSandbox\Sandbox;
use JiguangSandbox\SandboxApp;
use JiguangSandbox\SandboxException;
use JiguangSandbox\SandboxTestCase;

/** The client's calls against a real sandbox, each test on an app of its own (the base class). */
final class ClientTest extends SandboxTestCase
{
    private const MOBILE = '13800138000';

    public function testEachTestGetsAFreshAppOfItsOwn(): void
    {
        $this->assertMatchesRegularExpression('/^[0-9a-f]{24}$/', $this->sandbox->appKey);
        $this->assertMatchesRegularExpression('/^[0-9a-f]{24}$/', $this->sandbox->masterSecret);
        $this->assertSame($this->sandbox->appKey, $this->sandbox->app()['app_key']);
        $other = $this->newSandboxApp();
        $this->assertNotSame($this->sandbox->appKey, $other->appKey);
        Vendor::call($other, 'POST', '/v1/codes', ['mobile' => self::MOBILE, 'temp_id' => 1]);
        $this->assertCount(1, $other->messages());
        $this->assertCount(0, $this->sandbox->messages());
        $url = Sandbox::shared()->url;
        foreach ([$this->sandbox->smsBaseUrl, $this->sandbox->pushBaseUrl, $this->sandbox->deviceBaseUrl, $this->sandbox->reportBaseUrl] as $base) {
            $this->assertSame($url, $base);
        }
        $this->assertSame("$url/_sandbox/ui/?app={$this->sandbox->appKey}", $this->sandbox->uiUrl);
    }

    public function testTheLatestCodeAndTheTextsWithTheirFilters(): void
    {
        [$status, $sent] = Vendor::call($this->sandbox, 'POST', '/v1/codes', ['mobile' => self::MOBILE, 'temp_id' => 1]);
        $this->assertSame(200, $status);
        Vendor::call($this->sandbox, 'POST', '/v1/messages', ['mobile' => '13900139000', 'temp_id' => 2, 'temp_para' => ['order' => 'A1', 'days' => '2']]);
        $code = $this->sandbox->latestCode(self::MOBILE, 5);
        $this->assertSame($sent['msg_id'], $code['msg_id']);
        $this->assertMatchesRegularExpression('/^\d{6}$/', $code['code']);
        $everything = $this->sandbox->messages();
        $this->assertSame(['13900139000', self::MOBILE], array_column($everything->items, 'mobile'));  // newest first
        $this->assertSame(['code'], array_column($this->sandbox->messages(['kind' => 'code'])->items, 'kind'));
        $this->assertSame([$sent['msg_id']], array_column($this->sandbox->messages(['mobile' => '+86' . self::MOBILE])->items, 'msg_id'));
        $this->assertCount(0, $this->sandbox->messages(['after' => $everything->nextAfter]));
        try {
            $this->sandbox->latestCode('13700137000', 0.2);
            $this->fail('no code was texted to 13700137000');
        } catch (NothingArrived $e) {
            $this->assertStringContainsString('13900139000', $e->getMessage());  // what did arrive
        }
    }

    public function testWaitingForTheNextTextAndFailingWithWhatDidArrive(): void
    {
        $this->sandbox->mark();
        Vendor::call($this->sandbox, 'POST', '/v1/codes', ['mobile' => self::MOBILE, 'temp_id' => 1]);
        $text = $this->sandbox->nextMessage(['mobile' => self::MOBILE], 10);
        $this->assertSame('code', $text['kind']);
        $this->assertStringContainsString($text['code'], $text['content']);
        Vendor::call($this->sandbox, 'POST', '/v1/messages', ['mobile' => '13900139000', 'temp_id' => 2, 'temp_para' => ['order' => 'B7', 'days' => '1']]);
        try {
            $this->sandbox->nextMessage(['mobile' => self::MOBILE], 0.3);
            $this->fail('nothing more was texted to ' . self::MOBILE);
        } catch (NothingArrived $e) {
            $this->assertInstanceOf(\PHPUnit\Framework\AssertionFailedError::class, $e);  // a failure, not an error
            $this->assertStringContainsString('{"mobile":"13800138000"}', $e->getMessage());
            $this->assertStringContainsString('to 13900139000 (template)', $e->getMessage());
            $this->assertStringContainsString('B7', $e->getMessage());
        }
    }

    public function testWaitingForATextThatIsSentWhileTheRequestIsHeld(): void
    {
        $this->sandbox->mark();
        // Another process sends it while this one waits.
        $send = sprintf(
            'sleep 0.3; curl -s -o /dev/null -u %s:%s -d %s %s/v1/codes',
            $this->sandbox->appKey,
            $this->sandbox->masterSecret,
            escapeshellarg('{"mobile":"13800138000","temp_id":1}'),
            $this->sandbox->smsBaseUrl,
        );
        $sender = proc_open(['sh', '-c', $send], [], $pipes);
        $started = microtime(true);
        $text = $this->sandbox->nextMessage(['mobile' => self::MOBILE], 10);
        proc_close($sender);
        $this->assertSame('code', $text['kind']);
        $this->assertLessThan(10, microtime(true) - $started);
    }

    public function testTheJournalSaysWhyAndTheNextRefusalCanBeWaitedFor(): void
    {
        [$status, $answer] = Vendor::call($this->sandbox, 'POST', '/v1/messages', ['mobile' => self::MOBILE, 'temp_id' => 99]);
        $this->assertSame([403, 50013], [$status, $answer['error']['code']]);
        $refusal = $this->sandbox->nextRequest(['status' => 403]);
        $this->assertSame('/v1/messages', $refusal['path']);
        $this->assertSame('the app has no template 99', $refusal['reason']);
        $this->assertSame($refusal['seq'], $this->sandbox->requests(['code' => 50013])[0]['seq']);
        $this->expectException(NothingArrived::class);
        $this->sandbox->nextRequest(['status' => 403], 0.2);
    }

    public function testMovingTheClockExpiresACode(): void
    {
        [, $sent] = Vendor::call($this->sandbox, 'POST', '/v1/codes', ['mobile' => self::MOBILE, 'temp_id' => 1]);
        $code = $this->sandbox->latestCode(self::MOBILE)['code'];
        $before = $this->sandbox->clock()['now'];
        $moved = $this->sandbox->advanceClock(new \DateInterval('PT5M1S'));  // template 1: 300 s
        $this->assertGreaterThanOrEqual($before + 301000, $moved['now']);
        [, $valid] = Vendor::call($this->sandbox, 'POST', "/v1/codes/{$sent['msg_id']}/valid", ['code' => $code]);
        $this->assertSame(50011, $valid['error']['code']);  // expired
        try {
            $this->sandbox->setClock(new \DateTimeImmutable('2001-01-01T00:00:00Z'));
            $this->fail('the clock moved back');
        } catch (SandboxException $e) {
            $this->assertSame([409, 90053], [$e->status, $e->errorCode]);
        }
    }

    public function testFaultsAreArmedListedUsedAndCleared(): void
    {
        $this->assertSame(2, $this->sandbox->armFault(['path' => '/v1/codes', 'code' => 50019, 'times' => 2])['remaining']);
        $this->assertSame([2], array_column($this->sandbox->faults(), 'remaining'));
        $this->assertSame(
            [500, ['error' => ['code' => 50019, 'message' => 'server error']]],
            Vendor::call($this->sandbox, 'POST', '/v1/codes', ['mobile' => self::MOBILE, 'temp_id' => 1]),
        );
        $this->assertStringContainsString('fault #', $this->sandbox->nextRequest(['code' => 50019])['reason']);
        $this->assertSame(1, $this->sandbox->clearFaults());
        $this->assertSame(200, Vendor::call($this->sandbox, 'POST', '/v1/codes', ['mobile' => self::MOBILE, 'temp_id' => 1])[0]);
        try {
            $this->sandbox->armFault(['path' => '/v1/mesages', 'code' => 50019]);
            $this->fail('a fault that could never fire was armed');
        } catch (SandboxException $e) {
            $this->assertSame(90020, $e->errorCode);
            $this->assertStringContainsString('no route serves /v1/mesages', $e->getMessage());
        }
    }

    public function testATemplateRejectedInReviewAndASignatureApproved(): void
    {
        $this->sandbox->reviewTemplate(2, SandboxApp::REJECTED, 'no order numbers');
        [$status, $answer] = Vendor::call($this->sandbox, 'POST', '/v1/messages', ['mobile' => self::MOBILE, 'temp_id' => 2, 'temp_para' => ['order' => 'J2', 'days' => '1']]);
        $this->assertSame([403, 50021], [$status, $answer['error']['code']]);
        $this->assertSame('template 2 was rejected in review: "no order numbers"', $this->sandbox->nextRequest(['code' => 50021])['reason']);
        [, $made] = Vendor::call($this->sandbox, 'POST', '/v1/templates', ['template' => '取件码{{code}}', 'type' => 1, 'ttl' => 60]);
        $this->assertSame(SandboxApp::APPROVED, $this->sandbox->reviewTemplate($made['temp_id'], SandboxApp::APPROVED)['status']);
        try {
            $this->sandbox->reviewSign(987654, SandboxApp::APPROVED);
            $this->fail('an unknown signature was reviewed');
        } catch (SandboxException $e) {
            $this->assertSame(90042, $e->errorCode);
        }
    }

    public function testAnUplinkReplyAndADeliveryReport(): void
    {
        [, $sent] = Vendor::call($this->sandbox, 'POST', '/v1/messages', ['mobile' => self::MOBILE, 'temp_id' => 2, 'temp_para' => ['order' => 'R1', 'days' => '1']]);
        $this->sandbox->setReport($sent['msg_id'], 4002);
        $this->sandbox->advanceClock(10000);
        $this->assertSame(4002, $this->sandbox->reports(['msg_id' => $sent['msg_id']])[0]['status']);
        $this->sandbox->reply(self::MOBILE, 'TD');
        $this->assertSame('TD', $this->sandbox->replies(['mobile' => self::MOBILE])[0]['content']);
    }

    public function testARegisteredDeviceGetsAPushAndOpensIt(): void
    {
        $rid = $this->sandbox->registerDevice('ios', ['alias' => 'buyer1', 'tags' => ['vip'], 'mobile' => '13700137000'])['registration_id'];
        $this->assertSame([$rid], array_column($this->sandbox->devices(['alias' => 'buyer1']), 'registration_id'));
        $this->assertContains($rid, array_column($this->sandbox->devices(['tag' => 'vip', 'platform' => 'ios']), 'registration_id'));
        $this->assertSame([], $this->sandbox->devices(['tag' => 'vip', 'platform' => 'winphone']));
        [$status, $pushed] = Vendor::call($this->sandbox, 'POST', '/v3/push', ['platform' => 'all', 'audience' => ['alias' => ['buyer1']], 'notification' => ['alert' => 'hi']]);
        $this->assertSame(200, $status);
        $push = $this->sandbox->nextPush(['registration_id' => $rid]);
        $this->assertSame([$pushed['msg_id'], 'hi'], [$push['msg_id'], $push['notification']['alert']]);
        $this->assertSame($rid, $this->sandbox->click($pushed['msg_id'], $rid)['registration_id']);
        // Offline, a push waits for it; online again, it is delivered.
        $this->sandbox->setDeviceOnline($rid, false);
        Vendor::call($this->sandbox, 'POST', '/v3/push', ['platform' => 'all', 'audience' => ['registration_id' => [$rid]], 'notification' => ['alert' => 'later']]);
        try {
            $this->sandbox->nextPush(['registration_id' => $rid], 0.2);
            $this->fail('an offline device got a push');
        } catch (NothingArrived) {
        }
        $this->assertSame(1, $this->sandbox->setDeviceOnline($rid, true)['delivered']);
        $this->assertSame('later', $this->sandbox->nextPush(['registration_id' => $rid])['notification']['alert']);
    }

    public function testResetExportAndImport(): void
    {
        Vendor::call($this->sandbox, 'POST', '/v1/messages', ['mobile' => self::MOBILE, 'temp_id' => 99]);
        $this->sandbox->patchApp(['balances' => ['industry' => 5]]);
        $document = $this->sandbox->exportAppJson();
        $decoded = json_decode($document, true);
        $this->assertSame(['jiguang-sandbox/app', 1, $this->sandbox->appKey], [$decoded['format'], $decoded['version'], $decoded['app_key']]);
        $this->assertSame($decoded['tables'], $this->sandbox->exportApp()['tables']);
        $this->sandbox->reset();
        $this->assertCount(0, $this->sandbox->requests(['code' => 50013]));
        $this->assertNotSame(5, $this->sandbox->app()['balances']['industry']);
        $elsewhere = $this->newSandboxApp();
        $this->sandbox->deleteApp();  // a document's ids are one app's: the first one goes
        $this->assertTrue($elsewhere->importApp($document)['imported']);
        $this->assertSame('the app has no template 99', $elsewhere->requests(['code' => 50013])[0]['reason']);
        $this->assertSame(5, $elsewhere->app()['balances']['industry']);
    }

    public function testARefusalCarriesItsStatusCodeAndMessage(): void
    {
        try {
            $this->sandbox->patchApp(['balances' => ['industry' => -1]]);
            $this->fail('a negative balance was taken');
        } catch (SandboxException $e) {
            $this->assertSame([400, 90020], [$e->status, $e->errorCode]);
            $this->assertStringContainsString('"balances.industry"', $e->getMessage());
        }
        $wrong = new SandboxApp($this->sandbox->baseUrl, $this->sandbox->appKey, str_repeat('0', 24));
        try {
            $wrong->app();
            $this->fail('wrong credentials were taken');
        } catch (SandboxException $e) {
            $this->assertSame([401, 90002], [$e->status, $e->errorCode]);
        }
    }
}

import { describe, expect, it } from 'vitest';
import { EvidenceCapture } from '../../../src/application/evidence/EvidenceCapture.js';
import type { EvidenceWriter } from '../../../src/application/evidence/EvidenceWriter.js';
import { OperationRunner } from '../../../src/application/OperationRunner.js';
import { SECURE_WINDOW_WITHHELD, SecureScreenError } from '../../../src/domain/evidence/secureScreen.js';
import type { DeviceGateway } from '../../../src/domain/ports.js';
import { parseSecureWindow } from '../../../src/infrastructure/adb/secureWindow.js';
import { RecordingLogger } from '../../support/fakes/RecordingLogger.js';
import { SeededRandom } from '../../support/fakes/SeededRandom.js';

/** A window block as WindowState.dump prints it (API 34), with the flags and visibility given. */
const windowBlock = (title: string, flags: string, visibility: string): string =>
  `  Window #1 Window{8d0a2f1 u0 ${title}}:\n` +
  '    mDisplayId=0 rootTaskId=42 mSession=Session{5d6e7f8 2000:u0a10160} mClient=android.os.BinderProxy@2c3d4e5\n' +
  '    mAttrs=WM.LayoutParams{(0,0)(fillxfill) sim={adjust=resize forwardNavigation} ty=BASE_APPLICATION wanim=0x10302f8\n' +
  `      fl=${flags}\n` +
  '      pfl=NO_MOVE_ANIMATION USE_BLAST INSET_PARENT_FRAME_BY_IME}\n' +
  `    mViewVisibility=${visibility} mHaveFrame=true mObscured=false\n`;

const dump = (...blocks: string[]): string =>
  `WINDOW MANAGER WINDOWS (dumpsys window windows)\n${blocks.join('')}\n  mCurrentFocus=Window{8d0a2f1 u0 com.example.bank/com.example.bank.LoginActivity}\n`;

describe('parseSecureWindow', () => {
  it('finds the visible window whose flags name SECURE, by its component', () => {
    const text = dump(
      windowBlock(
        'com.example.bank/com.example.bank.LoginActivity',
        'LAYOUT_IN_SCREEN SECURE LAYOUT_INSET_DECOR SPLIT_TOUCH',
        '0x0',
      ),
    );
    expect(parseSecureWindow(text)).toEqual({ component: 'com.example.bank/com.example.bank.LoginActivity' });
  });

  it('ignores a window without SECURE, a hidden secure window, and SECURE among the private flags', () => {
    expect(
      parseSecureWindow(dump(windowBlock('com.a/.Main', 'LAYOUT_IN_SCREEN LAYOUT_INSET_DECOR', '0x0'))),
    ).toBeNull();
    expect(parseSecureWindow(dump(windowBlock('com.a/.Main', 'LAYOUT_IN_SCREEN SECURE', '0x8')))).toBeNull();
    expect(parseSecureWindow('    pfl=SECURE\n')).toBeNull();
  });

  it('reads the hex flags of old releases (FLAG_SECURE is 0x2000) and keeps a title without a component out', () => {
    expect(parseSecureWindow(dump(windowBlock('com.a/.Main', '#1812100', '0x0')))).toEqual({
      component: 'com.a/.Main',
    });
    expect(parseSecureWindow(dump(windowBlock('com.a/.Main', '#1810100', '0x0')))).toBeNull();
    expect(parseSecureWindow(dump(windowBlock('PopupWindow:1a2b3c', 'SECURE', '0x0')))).toEqual({ component: null });
  });
});

describe('evidence on a secure screen', () => {
  const device = (error: Error): DeviceGateway =>
    ({ screencap: () => Promise.reject(error) }) as unknown as DeviceGateway;
  const writer = { write: () => Promise.reject(new Error('never written')) } as unknown as EvidenceWriter;

  it("an action's capture keeps the statement instead of a file; other capture failures still fail", async () => {
    const capture = new EvidenceCapture(writer, new RecordingLogger());
    expect(await capture.capture(device(new SecureScreenError('com.a/.Main')), 'ui-tap')).toEqual({
      ref: SECURE_WINDOW_WITHHELD,
      width: 0,
      height: 0,
    });
    await expect(capture.capture(device(new Error('adb gone')), 'ui-tap')).rejects.toThrow('adb gone');
  });

  it('the answer says screen_secure: true and names no evidence', async () => {
    const runner = new OperationRunner(new SeededRandom(), new RecordingLogger());
    const { envelope } = await runner.run('ui_tap', async () => ({
      data: { tapped: true },
      evidence: SECURE_WINDOW_WITHHELD,
    }));
    expect(envelope).toMatchObject({ ok: true, data: { tapped: true, screen_secure: true }, evidence: null });
    const plain = await runner.run('ui_tap', async () => ({
      data: { tapped: true },
      evidence: { artifact_id: 'a.png' },
    }));
    expect(plain.envelope.data).toEqual({ tapped: true });
  });
});

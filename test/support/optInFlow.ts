/**
 * A flow of the opt-in toolsets' step tools on the virtual device's Settings (ui_wait of `wait`,
 * device_key of `device`, app_stop of `apps` when asked), run by the flow CLI and by a task.
 */
export interface OptInFlow {
  readonly package_name: string;
  readonly steps: readonly { readonly tool: string; readonly arguments: Record<string, unknown> }[];
}

export function optInFlow(options: { readonly appStop: boolean }): OptInFlow {
  const visible = (text: string, extra: Record<string, unknown> = {}) => ({
    tool: 'ui_wait',
    arguments: { selector: { text }, until: 'visible', ...extra },
  });
  return {
    package_name: 'com.android.settings',
    steps: [
      visible('Apps'),
      { tool: 'ui_tap', arguments: { selector: { text: 'Apps' } } },
      visible('All apps', { timeout_s: 5 }),
      { tool: 'device_key', arguments: { key: 'home' } },
      { tool: 'ui_wait', arguments: { selector: { text: 'Apps' }, until: 'gone' } },
      ...(options.appStop ? [{ tool: 'app_stop', arguments: { package_name: 'com.android.settings' } }] : []),
      { tool: 'app_open', arguments: { package_name: 'com.android.settings' } },
      visible('Apps'),
    ],
  };
}

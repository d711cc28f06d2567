/**
 * An AutomationGateway whose Appium URL is known only when it is first needed: a managed
 * Appium gets its port when it starts, at the first action, not when the harness starts
 * (tools/list must answer with no Appium at all). Each call resolves the endpoint, then
 * delegates to a gateway built for that URL; a managed Appium restarted on another port
 * simply yields a new delegate.
 */
import type { AutomationEndpointStatus } from '../../domain/automationEndpoint.js';
import type { AutomationGateway, AutomationSession, SessionOptions } from '../../domain/ports.js';
import type { AppiumEndpoint } from './ManagedAppium.js';

export type GatewayForUrl = (url: string) => AutomationGateway;

export class EndpointAutomationGateway implements AutomationGateway {
  #delegate: { url: string; gateway: AutomationGateway } | null = null;

  constructor(
    private readonly endpoint: AppiumEndpoint,
    private readonly gatewayFor: GatewayForUrl,
  ) {}

  async status(): Promise<AutomationEndpointStatus> {
    return (await this.current()).status();
  }

  async openSession(options: SessionOptions): Promise<AutomationSession> {
    return (await this.current()).openSession(options);
  }

  async listSessionIds(): Promise<string[]> {
    return (await this.current()).listSessionIds();
  }

  private async current(): Promise<AutomationGateway> {
    const url = await this.endpoint.url();
    if (this.#delegate?.url !== url) this.#delegate = { url, gateway: this.gatewayFor(url) };
    return this.#delegate.gateway;
  }
}

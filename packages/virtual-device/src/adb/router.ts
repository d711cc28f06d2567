/**
 * Maps a service name from an OPEN packet to the code that serves it. Returning
 * null refuses the stream (CLSE), as adbd does for a service it does not know or
 * a port nothing listens on. Every open is logged, refused ones included.
 */
import type { DeviceServices } from '../contracts.js';
import { parseAbbExecService, runAbbExecService } from './abbService.js';
import { parseShellService, runShellService } from './shellService.js';
import type { ServiceStream } from './stream.js';
import { runSyncService } from './syncService.js';
import { bridgeTcpService, parseTcpService } from './tcpService.js';

export type ServiceStarter = (stream: ServiceStream) => void;

/** Service names are logged without the NULs abb_exec uses as separators. */
function printable(service: string): string {
  return service.replace(/\0/g, ' ');
}

export function openService(service: string, services: DeviceServices): ServiceStarter | null {
  const shell = parseShellService(service, services.legacyPty?.() ?? false);
  if (shell) {
    services.log('service', printable(service));
    return (stream) => runShellService(stream, services, shell);
  }
  if (service === 'sync:') {
    services.log('service', service);
    return (stream) => runSyncService(stream, services);
  }
  const port = parseTcpService(service);
  if (port !== null) {
    const socket = services.openTcp(port);
    services.log('tcp', socket ? `open ${service}` : `refused ${service}: nothing listening`);
    return socket ? (stream) => bridgeTcpService(stream, socket) : null;
  }
  const abbArgs = parseAbbExecService(service);
  if (abbArgs) {
    services.log('abb', abbArgs.join(' '));
    return (stream) => runAbbExecService(stream, services, abbArgs);
  }
  services.log('service', `refused unknown service ${printable(service)}`);
  return null;
}

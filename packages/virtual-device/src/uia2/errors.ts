/**
 * The errors the UiAutomator2 server answers with, in one place: an HTTP status, the W3C error
 * name and the server's own message text, which clients match on.
 */

export class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly error: string,
    message: string,
  ) {
    super(message);
  }
}

export const noSuchElement = (): HttpError =>
  new HttpError(
    404,
    'no such element',
    'An element could not be located on the page using the given search parameters.',
  );

/** A route the server does not map (its message names the method and the path it was asked). */
export const unknownCommand = (method: string, path: string): HttpError =>
  new HttpError(
    404,
    'unknown command',
    `The requested resource could not be found, or a request was received using an HTTP method that is not supported by the mapped resource: ${method} ${path}`,
  );

export const invalidArgument = (message: string): HttpError => new HttpError(400, 'invalid argument', message);

/**
 * An IllegalArgumentException thrown in a handler: SafeRequestHandler wraps it in
 * InvalidArgumentException(Throwable), whose message is the cause's toString.
 */
export const illegalArgument = (message: string): HttpError =>
  invalidArgument(`java.lang.IllegalArgumentException: ${message}`);

/**
 * ScreenshotHelper.validateScreenshot: UiAutomation.takeScreenshot gave no bitmap (SurfaceFlinger
 * refused it for a FLAG_SECURE window), so TakeScreenshotException with its default message.
 */
export const unableToCaptureScreen = (): HttpError =>
  new HttpError(
    500,
    'unable to capture screen',
    "Failed to capture a screenshot. Does the current view have 'secure' flag set?",
  );

export const invalidElementState = (message: string): HttpError => new HttpError(400, 'invalid element state', message);

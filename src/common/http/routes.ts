import { All, type INestApplication, Req, RequestMethod, SetMetadata, type Type } from '@nestjs/common';
import { GUARDS_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum.js';
import { ModulesContainer } from '@nestjs/core';
import { ApiExcludeEndpoint } from '@nestjs/swagger';
import type { Request } from 'express';
import { ProblemException } from '../problem/problem.js';
import { JsonBodyReader } from './json-body.js';
import { IS_PUBLIC } from './public.decorator.js';

type Handler = (...args: unknown[]) => unknown;

/** One route a controller declares: its class, handler, method and full Express path. */
export interface Route {
  readonly controller: Type;
  readonly handlerName: string;
  readonly handler: Handler;
  readonly method: RequestMethod;
  /** The whole path, e.g. `/special-events/:eventId`. */
  readonly path: string;
  /** The handler's part of the path, relative to the controller's. */
  readonly handlerPath: string;
  /** Public with `@Public()` on its handler or its class. */
  readonly isPublic: boolean;
}

/** Marks the handlers that installRouteDefaults added, so that they are never taken for routes. */
const GENERATED = Symbol('GENERATED_ROUTE');

/**
 * True for the 405 and 404 handlers installRouteDefaults added: they do nothing a caller could be
 * refused, so a role check lets every authenticated caller reach their answer.
 */
export function isGeneratedRoute(handler: unknown): boolean {
  return typeof handler === 'function' && Reflect.getMetadata(GENERATED, handler) === true;
}

function joinPath(...parts: string[]): string {
  const path = parts
    .flatMap((part) => part.split('/'))
    .filter((segment) => segment !== '')
    .join('/');
  return `/${path}`;
}

function asList(value: unknown): string[] {
  if (value === undefined) return [''];
  return Array.isArray(value) ? (value as string[]) : [value as string];
}

function methodNames(prototype: object): string[] {
  const names = new Set<string>();
  for (
    let current = prototype;
    current !== Object.prototype && current !== null;
    current = Object.getPrototypeOf(current)
  ) {
    for (const name of Object.getOwnPropertyNames(current)) {
      if (name !== 'constructor' && typeof Object.getOwnPropertyDescriptor(current, name)?.value === 'function')
        names.add(name);
    }
  }
  return [...names];
}

/** Every route the application's controllers declare, in the order Nest registers them. */
export function routesOf(app: INestApplication): Route[] {
  const routes: Route[] = [];
  for (const module of app.get(ModulesContainer).values()) {
    for (const wrapper of module.controllers.values()) {
      const controller = wrapper.metatype as Type;
      const classPublic = Reflect.getMetadata(IS_PUBLIC, controller) === true;
      for (const handlerName of methodNames(controller.prototype)) {
        const handler = (controller.prototype as Record<string, Handler>)[handlerName];
        const handlerPaths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        if (handlerPaths === undefined || Reflect.getMetadata(GENERATED, handler) === true) continue;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod;
        const isPublic = classPublic || Reflect.getMetadata(IS_PUBLIC, handler) === true;
        for (const controllerPath of asList(Reflect.getMetadata(PATH_METADATA, controller))) {
          for (const handlerPath of asList(handlerPaths)) {
            routes.push({
              controller,
              handlerName,
              handler,
              method,
              path: joinPath(controllerPath, handlerPath),
              handlerPath,
              isPublic,
            });
          }
        }
      }
    }
  }
  return routes;
}

/** The HTTP method names of a route, as in an `Allow` header. */
export function methodName(method: RequestMethod): string {
  return RequestMethod[method];
}

/** True when the handler takes the request body (`@Body()`, whole or one property). */
function readsBody(route: Route): boolean {
  const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, route.controller, route.handlerName) ?? {}) as Record<
    string,
    unknown
  >;
  return Object.keys(args).some((key) => key.split(':')[0] === String(RouteParamtypes.BODY));
}

/**
 * What every controller gets without asking, installed after the modules are built and before
 * Nest registers the routes (createApp), so that a new controller cannot forget any of it:
 *
 * - a handler that takes `@Body()` gets the JSON body reader as its own guard: the body is read
 *   after authentication, and only for the handlers that take one;
 * - on each path a controller serves, every other method answers 405 with `Allow` listing the
 *   methods it declares (HEAD with GET, which Express answers for it);
 * - below a controller's path, paths it does not serve answer 404.
 *
 * The 405 and 404 answers come after the global guards, like the routes themselves: a protected
 * controller tells an anonymous caller nothing about its paths beyond the 401.
 */
export function installRouteDefaults(app: INestApplication): void {
  const routes = routesOf(app);
  // An instance rather than the class: Nest instantiates guard classes only when its module scan
  // saw them on a handler, and the reader has no dependencies to inject.
  const bodyReader = new JsonBodyReader();
  for (const route of routes) {
    if (!readsBody(route)) continue;
    const guards = (Reflect.getMetadata(GUARDS_METADATA, route.handler) ?? []) as unknown[];
    // First among the handler's own guards: those after it (IdempotencyGuard) may need the body.
    // Once per handler, however many apps this process builds (the tests build several): a second
    // reader would read, and answer `Expect: 100-continue`, a second time.
    if (!guards.some((guard) => guard instanceof JsonBodyReader)) {
      Reflect.defineMetadata(GUARDS_METADATA, [bodyReader, ...guards], route.handler);
    }
  }
  const byController = new Map<Type, Route[]>();
  for (const route of routes)
    byController.set(route.controller, [...(byController.get(route.controller) ?? []), route]);
  for (const [controller, own] of byController) {
    const byPath = new Map<string, Route[]>();
    for (const route of own) {
      if (route.method !== RequestMethod.ALL)
        byPath.set(route.handlerPath, [...(byPath.get(route.handlerPath) ?? []), route]);
    }
    for (const [handlerPath, served] of byPath) {
      const methods = [...new Set(served.map((route) => methodName(route.method)))];
      if (methods.includes('GET') && !methods.includes('HEAD')) methods.splice(methods.indexOf('GET') + 1, 0, 'HEAD');
      const allow = methods.join(', ');
      addHandler(
        controller,
        `405 ${handlerPath}`,
        handlerPath,
        served.every((route) => route.isPublic),
        (request) => {
          throw new ProblemException(405, `${request.method} is not supported here; use ${allow}.`, {
            headers: { Allow: allow },
          });
        },
      );
    }
    const controllerPaths = asList(Reflect.getMetadata(PATH_METADATA, controller)).filter(
      (path) => joinPath(path) !== '/',
    );
    if (controllerPaths.length > 0) {
      addHandler(
        controller,
        '404 below',
        '*rest',
        own.every((route) => route.isPublic),
        () => {
          throw new ProblemException(404, 'No resource exists at this path.');
        },
      );
    }
  }
}

function addHandler(
  controller: Type,
  name: string,
  path: string,
  isPublic: boolean,
  answer: (request: Request) => never,
): void {
  const prototype = controller.prototype as Record<string, unknown>;
  const handler = function (request: Request): never {
    return answer(request);
  };
  Object.defineProperty(prototype, name, { value: handler, configurable: true, writable: true });
  const descriptor = Object.getOwnPropertyDescriptor(prototype, name) as PropertyDescriptor;
  Reflect.defineMetadata(GENERATED, true, handler);
  All(path)(prototype, name, descriptor);
  Req()(prototype, name, 0);
  ApiExcludeEndpoint()(prototype, name, descriptor);
  if (isPublic) SetMetadata(IS_PUBLIC, true)(prototype, name, descriptor);
}

import { Controller, Get, Param, Req, Res } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { RequiresRole } from '../auth/roles.js';
import { ifNoneMatchFound } from '../common/http/entity-tags.js';
import { applyPageSecurityHeaders } from '../common/http/security-headers.js';
import { ProblemException } from '../common/problem/problem.js';
import { MuseumClock } from '../domain/museum-clock.js';
import { type DoorFile, loadDoorFiles } from './door-files.js';

/**
 * The door scanner: a page for box office and above that reads tickets' QR codes with the camera
 * and sends each to POST /check-ins, where every rule of check-in stays. It is behind the same
 * Basic login as the API (the global guard), so the browser asks for the user's credentials once
 * and sends them with the page's own calls: the page holds none. A page is not an API operation,
 * so the OpenAPI document leaves it out.
 */
@ApiExcludeController()
@RequiresRole('box-office')
@Controller('door')
export class DoorController {
  private readonly files: ReturnType<typeof loadDoorFiles>;

  constructor(clock: MuseumClock) {
    this.files = loadDoorFiles(clock.timeZone);
  }

  @Get()
  page(@Req() request: Request, @Res() response: Response): void {
    send(request, response, this.files.page);
  }

  /** The page's script, style sheet and jsQR, by their fixed names; any other name is a 404. */
  @Get(':file')
  asset(@Param('file') name: string, @Req() request: Request, @Res() response: Response): void {
    const found = this.files.assets.get(name);
    if (found === undefined) throw new ProblemException(404, 'No resource exists at this path.');
    send(request, response, found);
  }
}

function send(request: Request, response: Response, file: DoorFile): void {
  applyPageSecurityHeaders(response);
  // Behind a login: no shared cache keeps it; a browser revalidates it on every load (a 304).
  response.setHeader('Cache-Control', 'private, no-cache');
  response.setHeader('ETag', file.etag);
  const condition = request.headers['if-none-match'];
  if (condition !== undefined && ifNoneMatchFound(condition, file.etag)) {
    response.status(304).end();
    return;
  }
  response.status(200).type(file.contentType).send(file.body);
}
